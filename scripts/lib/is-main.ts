// Whether a module is the script node was asked to run, for files that are both a command and a
// library. Compared as real file URLs: `file://${process.argv[1]}` missed a path with a space (the URL
// is percent-encoded) or reached through a symlink (node runs the real file), and the command then did
// nothing and exited 0.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export function isMain(moduleUrl: string, script: string | undefined = process.argv[1]): boolean {
  if (!script) return false;
  try {
    return moduleUrl === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}
