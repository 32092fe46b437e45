// `node scripts/copy-assets.mjs <src> <dist> <rule>…`: copies into the build what tsc does not emit.
// A rule is a file ending (`.sql`) or a folder name ending in `/` (`web/`, copied whole).
import { cpSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const [from, to, ...rules] = process.argv.slice(2);
const folders = rules.filter((r) => r.endsWith('/')).map((r) => r.slice(0, -1));
const endings = rules.filter((r) => !r.endsWith('/'));

for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const path = join(entry.parentPath, entry.name);
  const rel = relative(from, path);
  const inFolder = rel
    .split(sep)
    .slice(0, -1)
    .some((part) => folders.includes(part));
  if (inFolder || endings.some((e) => entry.name.endsWith(e))) cpSync(path, join(to, rel));
}
