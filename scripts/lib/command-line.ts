// The commands' arguments, read one way. A mistyped option or a stray argument stops a command before
// it opens anything (exit 2, with its usage): `--no-pubish` must not publish, and `db:backup -- --help`
// must not write a backup named `--help`.
import { parseArgs } from 'node:util';

export interface CommandLine<Flag extends string> {
  /** The command and what it takes, e.g. `npm run db:restore -- <backup file> [--replace]`. */
  usage: string;
  /** Its options, all of them switches (`--replace`), named without the dashes. */
  flags?: readonly Flag[];
  /** The arguments that are not options: those it needs, then those it may also take. */
  needs?: readonly string[];
  takes?: readonly string[];
  /** How a refusal begins, saying that nothing was done (`Nothing was published`). */
  refusal: string;
}

export type ReadCommandLine<Flag extends string> =
  { ok: true; flags: Record<Flag, boolean>; args: string[] } | { ok: false; error: string };

/** The command as typed, `npm run name`: the usage's first three words. */
function commandOf(usage: string): string {
  return usage.split(' ').slice(0, 3).join(' ');
}

/** Reads `argv` (the arguments after the script's name) against the command's spec. */
export function readCommandLine<Flag extends string>(
  spec: CommandLine<Flag>,
  argv: readonly string[],
): ReadCommandLine<Flag> {
  const known = new Set<string>(spec.flags ?? []);
  // Not strict: every option is gathered as a token, so all the unknown ones are named at once.
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true });
  const command = commandOf(spec.usage);
  const unknown: string[] = [];
  const flags = Object.fromEntries([...known].map((flag) => [flag, false])) as Record<Flag, boolean>;
  const args: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') args.push(token.value);
    else if (token.kind === 'option-terminator') unknown.push('--');
    else if (!known.has(token.name) || token.rawName !== `--${token.name}`) unknown.push(token.rawName);
    else if (token.inlineValue)
      return { ok: false, error: `${token.rawName} takes no value (it was given "${token.value}").` };
    else flags[token.name as Flag] = true;
  }
  if (unknown.length > 0) return { ok: false, error: `${command} does not take ${unknown.join(' ')}.` };
  const needs = spec.needs ?? [];
  const most = needs.length + (spec.takes ?? []).length;
  if (args.length < needs.length)
    return { ok: false, error: `${command} needs ${needs.slice(args.length).join(' and ')}.` };
  if (args.length > most) {
    const takes = most === 0 ? 'no arguments' : `at most ${most} argument${most === 1 ? '' : 's'}`;
    return {
      ok: false,
      error: `${command} takes ${takes}; it was also given ${args.slice(most).join(' ')}.`,
    };
  }
  return { ok: true, flags, args };
}

/** This process's arguments read against the spec; a refusal is printed with the usage and ends it (exit 2). */
export function commandLine<Flag extends string>(
  spec: CommandLine<Flag>,
): { flags: Record<Flag, boolean>; args: string[] } {
  const read = readCommandLine(spec, process.argv.slice(2));
  if (!read.ok) {
    console.error(`${spec.refusal}: ${read.error}\nUsage: ${spec.usage}`);
    process.exit(2);
  }
  return read;
}
