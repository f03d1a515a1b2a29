// Every feature folder of the web app has its import boundary in biome.json, as the folder layout
// generates it: a new feature that is not yet in biome.json (or a boundary that forgets one) fails here.
import { describe, expect, it } from 'vitest';
import { expectedOverrides, featureFolders, featureOverride, readBiomeJson } from './feature-boundaries.ts';

describe('the web features import boundaries', () => {
  it('biome.json holds one per folder of web/src/features, naming every other feature', () => {
    const { overrides } = readBiomeJson();
    const features = featureFolders();
    expect(features).toContain('wishlist');
    for (const feature of features) {
      expect(overrides, `no boundary for web/src/features/${feature}: run npx tsx scripts/feature-boundaries.ts --write`).toContainEqual(
        featureOverride(feature, features),
      );
    }
    expect(overrides, 'biome.json differs from the folders: run npx tsx scripts/feature-boundaries.ts --write').toEqual(
      expectedOverrides(overrides),
    );
  });

  it("a feature's boundary names each other feature at every depth, and the app", () => {
    const group = (
      featureOverride('cart', ['auth', 'cart', 'wishlist']).linter as never as {
        rules: { style: { noRestrictedImports: { options: { patterns: { group: string[] }[] } } } };
      }
    ).rules.style.noRestrictedImports.options.patterns[0]!.group;
    expect(group).toEqual([
      '../auth/**',
      '../auth',
      '../../auth/**',
      '../../auth',
      '../../../auth/**',
      '../../../auth',
      '../wishlist/**',
      '../wishlist',
      '../../wishlist/**',
      '../../wishlist',
      '../../../wishlist/**',
      '../../../wishlist',
      '**/app/**',
    ]);
  });
});
