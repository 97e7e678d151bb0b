/**
 * The options of a command (node:util's parseArgs, strict: an unknown option or a missing value throws) plus
 * -h/--help. With --help, or without a value for one of the `required` (string) options, it prints `help` to
 * stdout and exits: 0 when help was asked for, else 2.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export function commandLine<T extends Options, R extends keyof T & string = never>(help: string, options: T, required: readonly R[] = []) {
  const { values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } } as T & { help: { type: 'boolean'; short: 'h' } } });
  const given = values as Record<string, unknown>;
  const asked = given.help === true;
  if (asked || required.some((k) => !given[k])) {
    process.stdout.write(help);
    process.exit(asked ? 0 : 2);
  }
  return values as typeof values & { [K in R]: string };
}

/** A command's usage error: `command: message`, a blank line and the help on stderr, then exit code 2. */
export function usageError(command: string, help: string): (message: string) => never {
  return (message) => {
    process.stderr.write(`${command}: ${message}\n\n${help}`);
    process.exit(2);
  };
}
