/** A command-line option that must be a whole number ≥ 1: its value, or exit 2 with a message naming it. */
export function wholeArg(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`--${name} must be a whole number ≥ 1\n`);
    process.exit(2);
  }
  return n;
}
