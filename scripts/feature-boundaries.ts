// The web app's import boundaries, generated from its folder layout: a feature (a folder of
// web/src/features) imports no other feature and not the app. Biome holds them as one
// noRestrictedImports override per feature in biome.json; this writes those overrides from the
// folders, so a new feature can't be forgotten (scripts/feature-boundaries.test.ts fails until
// `npx tsx scripts/feature-boundaries.ts --write` has been run).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMain } from './lib/is-main.ts';

const root = path.resolve(import.meta.dirname, '..');
export const biomeJsonPath = path.join(root, 'biome.json');
const featuresDir = 'web/src/features';
const MESSAGE =
  'A feature does not import another feature or the app: share through lib/ or components/, or let the app compose them (app/compose-features.tsx).';

type Override = { includes: string[]; [key: string]: unknown };

/** The features: the folders of web/src/features, sorted. */
export const featureFolders = () =>
  readdirSync(path.join(root, featuresDir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** A feature's override: every other feature, as a file up to three folders deep names it, and the app. */
export function featureOverride(feature: string, features: string[]): Override {
  const group = features
    .filter((other) => other !== feature)
    .flatMap((other) => ['../', '../../', '../../../'].flatMap((up) => [`${up}${other}/**`, `${up}${other}`]));
  return {
    includes: [`${featuresDir}/${feature}/**`],
    linter: {
      rules: {
        style: {
          noRestrictedImports: { level: 'error', options: { patterns: [{ group: [...group, '**/app/**'], message: MESSAGE }] } },
        },
      },
    },
  };
}

const isFeatureOverride = (override: Override) =>
  override.includes.length === 1 && override.includes[0]!.startsWith(`${featuresDir}/`) && override.includes[0]!.endsWith('/**');

/** biome.json's overrides as they should be: one per feature folder first, then the others as they are. */
export function expectedOverrides(current: Override[], features = featureFolders()): Override[] {
  return [...features.map((feature) => featureOverride(feature, features)), ...current.filter((o) => !isFeatureOverride(o))];
}

export const readBiomeJson = () => JSON.parse(readFileSync(biomeJsonPath, 'utf8')) as { overrides: Override[] };

if (isMain(import.meta.url)) {
  const config = readBiomeJson();
  config.overrides = expectedOverrides(config.overrides);
  if (process.argv.includes('--write')) {
    writeFileSync(biomeJsonPath, `${JSON.stringify(config, null, 2)}\n`);
    execFileSync('npx', ['biome', 'format', '--write', biomeJsonPath], { cwd: root, stdio: 'inherit' });
    console.log(`biome.json: boundaries for ${featureFolders().join(', ')}`);
  } else {
    console.log('Run with --write to update biome.json.');
  }
}
