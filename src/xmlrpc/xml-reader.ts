// A bounded XML reader for XML-RPC messages on top of saxes (strict, well-formedness checked): fed
// chunk by chunk as the body arrives, it builds a small element tree. It refuses any DOCTYPE (so no
// DTD and no entity can ever be declared, let alone expanded: the "billion laughs" body fails at
// its DOCTYPE), processing instructions other than the XML declaration, and trees nested deeper
// than a bound. Every failure is an XmlRpcFault naming the line and column.
import { SaxesParser } from 'saxes';
import { FAULT, XmlRpcFault } from './values.js';

export interface XmlElement {
  name: string;
  children: XmlElement[];
  /** Text directly inside the element (CDATA included). */
  text: string;
  line: number;
}

export interface XmlReaderLimits {
  /** Most nested elements (methodCall/params/param/value counts 4). */
  maxDepth: number;
}

export class XmlReader {
  private readonly parser = new SaxesParser({ xmlns: false, position: true });
  private readonly stack: XmlElement[] = [];
  private root: XmlElement | undefined;
  private failure: XmlRpcFault | undefined;

  constructor(private readonly limits: XmlReaderLimits) {
    const parser = this.parser;
    parser.on('doctype', () => this.fail(FAULT.PARSE_ERROR, 'a DOCTYPE is not accepted (XML-RPC messages use no DTD; entities are never expanded)'));
    parser.on('processinginstruction', (pi) => this.fail(FAULT.PARSE_ERROR, `processing instruction <?${pi.target}?> is not accepted`));
    parser.on('opentag', (tag) => {
      if (this.failure) return;
      if (this.stack.length >= this.limits.maxDepth) {
        this.fail(FAULT.INVALID_REQUEST, `elements nested deeper than ${this.limits.maxDepth} levels`);
        return;
      }
      const element: XmlElement = { name: tag.name, children: [], text: '', line: parser.line };
      const parent = this.stack[this.stack.length - 1];
      if (parent) parent.children.push(element);
      else this.root = element;
      this.stack.push(element);
    });
    parser.on('closetag', () => {
      if (!this.failure) this.stack.pop();
    });
    const onText = (text: string): void => {
      const current = this.stack[this.stack.length - 1];
      if (current && !this.failure) current.text += text;
    };
    parser.on('text', onText);
    parser.on('cdata', onText);
    parser.on('error', (error) => this.fail(FAULT.PARSE_ERROR, `malformed XML: ${error.message}`));
  }

  /** Feeds the next piece of the document; throws the first failure. */
  write(chunk: string): void {
    this.check();
    try {
      this.parser.write(chunk);
    } catch (error) {
      if (!this.failure) this.fail(FAULT.PARSE_ERROR, `malformed XML: ${(error as Error).message}`);
    }
    this.check();
  }

  /** Ends the document and returns its root element. */
  close(): XmlElement {
    this.check();
    try {
      this.parser.close();
    } catch (error) {
      if (!this.failure) this.fail(FAULT.PARSE_ERROR, `malformed XML: ${(error as Error).message}`);
    }
    this.check();
    if (!this.root) throw new XmlRpcFault(FAULT.PARSE_ERROR, 'the body holds no XML element');
    return this.root;
  }

  private fail(code: number, message: string): void {
    if (this.failure) return;
    const where = message.startsWith('malformed XML') ? '' : ` (line ${this.parser.line}, column ${this.parser.column})`;
    this.failure = new XmlRpcFault(code, `${message}${where}`);
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }
}

/** Reads a whole document held in memory (responses on the client side, tests). */
export function readXml(text: string, limits: XmlReaderLimits): XmlElement {
  const reader = new XmlReader(limits);
  reader.write(text);
  return reader.close();
}
