// Help text shared by the commands: the examples section every command adds after its options.
/** "Examples:" followed by each command line and, under it, what it does. */
export function examples(...cases: readonly (readonly [commandLine: string, explanation: string])[]): string {
  return `\nExamples:\n${cases.map(([line, explanation]) => `  $ ${line}\n      ${explanation}`).join('\n')}`;
}
