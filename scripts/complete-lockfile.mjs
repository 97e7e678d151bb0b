// `npm run lockfile:complete`: adds lockfile entries for the other platforms' optional native packages
// (esbuild, rollup, DuckDB bindings, …) that this machine's npm registry does not serve. Without them
// `npm ci` refuses the lockfile ("Missing: … from lock file"); with them it skips each as a package for
// another platform, exactly as it would with a lockfile made elsewhere. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(
    "Usage: npm run lockfile:complete\n\nAdds lockfile entries for the other platforms' optional native packages, so npm ci accepts the lockfile.\n",
  );
  process.exit(0);
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const pkgs = lock.packages;
const platformOf = (name) => {
  const s = name.split('/').pop();
  const os = ['android', 'darwin', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'win32', 'openharmony', 'linux'].find((o) => s.includes(o));
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'].find((c) => new RegExp(`[-_]${c}([-_]|$)`).test(s));
  const libc = /musl/.test(s) ? 'musl' : s.includes('linux') ? 'glibc' : undefined;
  return { os, cpu, libc };
};
let added = 0;
for (const [path, entry] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path === '' ? '' : `${path}/`;
    if (pkgs[`${base}node_modules/${dep}`] || pkgs[`node_modules/${dep}`]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os && !cpu) continue;
    pkgs[`node_modules/${dep}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(os ? { os: [os] } : {}),
      ...(libc && os === 'linux' ? { libc: [libc] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} entries for other platforms\n`);
