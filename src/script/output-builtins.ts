// Output functions: the specification's `print(x)` and GeckoSCRIPT's `writeOutput(x)` /
// `writeOutputLn(x)`, plus Java's `System.out.print/println`. Values are written as Java's string
// conversion shows them (`0.5`, `1.0E-5`, `3`).
import { javaString } from './java-format.js';
import type { Builtin, Builtins } from './runtime.js';

export function outputBuiltins(write: (text: string) => void): Builtins {
  const line = (types: string[], args: unknown[]): string => (args.length === 0 ? '' : javaString(args[0], types[0]));
  const withNewline: Builtin['call'] = (args, types) => write(`${line(types, args)}\n`);
  const withoutNewline: Builtin['call'] = (args, types) => write(line(types, args));
  const one = [{ params: ['Object'], returns: 'void' }];
  const optional = [{ params: [], returns: 'void' }, ...one];
  const list: Builtin[] = [
    { name: 'print', signatures: one, call: withNewline },
    { name: 'writeOutputLn', signatures: optional, call: withNewline },
    { name: 'writeOutput', signatures: one, call: withoutNewline },
    { name: 'System.out.println', signatures: optional, call: withNewline },
    { name: 'System.out.print', signatures: one, call: withoutNewline },
    { name: 'System.err.println', signatures: optional, call: withNewline },
  ];
  return new Map(list.map((b) => [b.name, b]));
}
