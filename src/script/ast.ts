// The syntax tree the parser builds and the compiler turns into closures. Every node keeps the
// position of its first token, for error messages.
import type { Position } from './errors.js';

/** Type names as written: `int`, `double`, `boolean`, `String`, `void`, arrays as `double[]`. */
export type TypeName = string;

export type Expr =
  | { kind: 'literal'; pos: Position; type: TypeName; value: number | string | boolean | null }
  | { kind: 'name'; pos: Position; name: string }
  | { kind: 'member'; pos: Position; object: Expr; name: string }
  | { kind: 'index'; pos: Position; array: Expr; index: Expr }
  | { kind: 'call'; pos: Position; callee: Expr; args: Expr[] }
  | { kind: 'unary'; pos: Position; op: '-' | '+' | '!' | '~'; operand: Expr }
  | { kind: 'update'; pos: Position; op: '++' | '--'; prefix: boolean; target: Expr }
  | { kind: 'binary'; pos: Position; op: string; left: Expr; right: Expr }
  | { kind: 'logical'; pos: Position; op: '&&' | '||'; left: Expr; right: Expr }
  | { kind: 'conditional'; pos: Position; test: Expr; then: Expr; otherwise: Expr }
  | { kind: 'assign'; pos: Position; op: string; target: Expr; value: Expr }
  | { kind: 'cast'; pos: Position; type: TypeName; operand: Expr }
  | { kind: 'newArray'; pos: Position; type: TypeName; sizes: Expr[]; init?: ArrayInit }
  | { kind: 'arrayInit'; pos: Position; init: ArrayInit };

/** `{1, 2, {3}}`: the elements of an array initializer. */
export interface ArrayInit {
  pos: Position;
  items: (Expr | ArrayInit)[];
}

export interface Declarator {
  pos: Position;
  name: string;
  /** Extra `[]` after the name (`double a[] = ...`). */
  dims: number;
  init?: Expr | ArrayInit;
}

export type Stmt =
  | { kind: 'declare'; pos: Position; type: TypeName | 'var'; declarators: Declarator[] }
  | { kind: 'expr'; pos: Position; expr: Expr }
  | { kind: 'block'; pos: Position; body: Stmt[] }
  | { kind: 'if'; pos: Position; test: Expr; then: Stmt; otherwise?: Stmt }
  | { kind: 'while'; pos: Position; test: Expr; body: Stmt }
  | { kind: 'doWhile'; pos: Position; body: Stmt; test: Expr }
  | { kind: 'for'; pos: Position; init: Stmt[]; test?: Expr; update: Expr[]; body: Stmt }
  | { kind: 'break'; pos: Position }
  | { kind: 'continue'; pos: Position }
  | { kind: 'return'; pos: Position }
  | { kind: 'empty'; pos: Position };

export interface Program {
  /** `import ...;` lines, as written (`static java.lang.Math.*`). */
  imports: string[];
  body: Stmt[];
}

export function isArrayInit(node: Expr | ArrayInit): node is ArrayInit {
  return !('kind' in node);
}
