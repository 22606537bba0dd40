// Recursive-descent parser of the scripting language (hand-written, so that every syntax error
// names what was expected where: "expected ';' after the statement"). Statements here,
// expressions in parse-expressions.ts.
import type { Declarator, Expr, Program, Stmt, TypeName } from './ast.js';
import { ScriptError, type SourceText } from './errors.js';
import { tokenize } from './lexer.js';
import { parseArrayInit, parseExpression, PRIMITIVE_TYPES } from './parse-expressions.js';
import { TokenStream } from './token-stream.js';

export function parseProgram(source: SourceText): Program {
  const ts = new TokenStream(tokenize(source));
  const imports: string[] = [];
  while (ts.is('import')) imports.push(parseImport(ts));
  const body: Stmt[] = [];
  while (ts.peek().kind !== 'eof') body.push(parseStatement(ts));
  return { imports, body };
}

function parseImport(ts: TokenStream): string {
  ts.next();
  const parts: string[] = [];
  if (ts.accept('static')) parts.push('static ');
  for (;;) {
    const t = ts.next();
    if (t.kind !== 'ident' && t.kind !== 'keyword' && t.text !== '*') throw new ScriptError('syntax', `expected a class name after 'import', found '${t.text}'`, t.pos);
    parts.push(t.text);
    if (!ts.accept('.')) break;
    parts.push('.');
  }
  ts.expect(';', 'after the import');
  return parts.join('');
}

/** A declaration starts with a type name (`double x`, `int[] a`, `var n`) followed by a name. */
function declarationType(ts: TokenStream): TypeName | 'var' | undefined {
  let ahead = 0;
  while (ts.is('final', ahead) || ts.is('static', ahead)) ahead++;
  const t = ts.peek(ahead);
  const known = t.kind === 'keyword' && (PRIMITIVE_TYPES.has(t.text) || t.text === 'var');
  const unknownClass = t.kind === 'ident' && (ts.peek(ahead + 1).kind === 'ident' || (ts.is('[', ahead + 1) && ts.is(']', ahead + 2)));
  if (!known && !unknownClass) return undefined;
  let type = t.text;
  let k = ahead + 1;
  while (ts.is('[', k) && ts.is(']', k + 1)) {
    type += '[]';
    k += 2;
  }
  if (ts.peek(k).kind !== 'ident') return undefined;
  if (unknownClass) {
    throw new ScriptError('compile', `unknown type '${t.text}': variables are int, long, double, boolean, String or arrays of them`, t.pos);
  }
  for (let i = 0; i < k; i++) ts.next();
  return type === 'var' ? 'var' : type;
}

function parseDeclaration(ts: TokenStream, type: TypeName | 'var', at: Stmt['pos']): Stmt {
  const declarators: Declarator[] = [];
  do {
    const name = ts.identifier('of the variable');
    let dims = 0;
    while (ts.accept('[')) {
      ts.expect(']', "after '[' in the variable's type");
      dims++;
    }
    if (ts.is('(')) {
      throw new ScriptError('compile', `method declarations are not supported (${name.text}(...)): write the code inline`, name.pos);
    }
    let init: Declarator['init'];
    if (ts.accept('=')) init = ts.is('{') ? parseArrayInit(ts) : parseExpression(ts);
    declarators.push({ pos: name.pos, name: name.text, dims, init });
  } while (ts.accept(','));
  return { kind: 'declare', pos: at, type, declarators };
}

function parseStatement(ts: TokenStream): Stmt {
  const t = ts.peek();
  const pos = t.pos;
  if (ts.is('{')) {
    ts.next();
    const body: Stmt[] = [];
    while (!ts.is('}')) {
      if (ts.peek().kind === 'eof') throw new ScriptError('syntax', "block opened here is not closed by '}'", pos);
      body.push(parseStatement(ts));
    }
    ts.next();
    return { kind: 'block', pos, body };
  }
  if (ts.accept(';')) return { kind: 'empty', pos };
  if (t.kind === 'keyword') {
    switch (t.text) {
      case 'if': {
        ts.next();
        const test = parseCondition(ts, 'if');
        const then = parseStatement(ts);
        return { kind: 'if', pos, test, then, otherwise: ts.accept('else') ? parseStatement(ts) : undefined };
      }
      case 'while': {
        ts.next();
        const test = parseCondition(ts, 'while');
        return { kind: 'while', pos, test, body: parseStatement(ts) };
      }
      case 'do': {
        ts.next();
        const body = parseStatement(ts);
        ts.expect('while', "after the body of 'do'");
        const test = parseCondition(ts, 'while');
        ts.expect(';', "after 'do ... while (...)'");
        return { kind: 'doWhile', pos, body, test };
      }
      case 'for':
        return parseFor(ts);
      case 'break':
      case 'continue':
      case 'return':
        ts.next();
        if (t.text === 'return' && !ts.is(';')) {
          throw new ScriptError('compile', "a script ends with 'return;' (it returns no value)", ts.peek().pos);
        }
        ts.expect(';', `after '${t.text}'`);
        return { kind: t.text, pos };
      case 'else':
        throw new ScriptError('syntax', "'else' without a matching 'if'", pos);
      default:
    }
  }
  const type = declarationType(ts);
  if (type) {
    const declaration = parseDeclaration(ts, type, pos);
    ts.expect(';', 'after the declaration');
    return declaration;
  }
  const expr = parseExpression(ts);
  checkStatementExpression(expr);
  ts.expect(';', 'after the statement');
  return { kind: 'expr', pos, expr };
}

/** Java allows only assignments, increments and calls as statements (`x + 1;` is an error). */
function checkStatementExpression(expr: Expr): void {
  if (expr.kind === 'assign' || expr.kind === 'update' || expr.kind === 'call') return;
  throw new ScriptError('syntax', 'not a statement: expected an assignment, ++/-- or a function call', expr.pos);
}

function parseCondition(ts: TokenStream, keyword: string): Expr {
  ts.expect('(', `after '${keyword}'`);
  const test = parseExpression(ts);
  ts.expect(')', `to close the condition of '${keyword}'`);
  return test;
}

function parseFor(ts: TokenStream): Stmt {
  const pos = ts.next().pos;
  ts.expect('(', "after 'for'");
  const init: Stmt[] = [];
  if (!ts.is(';')) {
    const type = declarationType(ts);
    if (type) init.push(parseDeclaration(ts, type, ts.peek().pos));
    else {
      do {
        const expr = parseExpression(ts);
        checkStatementExpression(expr);
        init.push({ kind: 'expr', pos: expr.pos, expr });
      } while (ts.accept(','));
    }
  }
  ts.expect(';', "after the initialisation of 'for'");
  const test = ts.is(';') ? undefined : parseExpression(ts);
  ts.expect(';', "after the condition of 'for'");
  const update: Expr[] = [];
  if (!ts.is(')')) {
    do {
      const expr = parseExpression(ts);
      checkStatementExpression(expr);
      update.push(expr);
    } while (ts.accept(','));
  }
  ts.expect(')', "to close 'for (...)'");
  return { kind: 'for', pos, init, test, update, body: parseStatement(ts) };
}
