// The STOMP frame codec: the streaming parser (split and packed frames, EOLs, content-length,
// NUL terminators, size limit, malformed frames) and escaping per version in both directions.
import { expect } from 'chai';
import { escapeHeaderValue, header, serializeFrame, unescapeHeaderValue, type StompFrame } from '../../../src/realtime/stomp/frame.js';
import { StompParser, StompProtocolError, type ParsedItem } from '../../../src/realtime/stomp/parser.js';

const parser = (maxFrameBytes = 4096): StompParser => new StompParser({ maxFrameBytes });
const frames = (items: ParsedItem[]): StompFrame[] => items.flatMap((i) => (i.kind === 'frame' ? [i.frame] : []));
const beats = (items: ParsedItem[]): number => items.filter((i) => i.kind === 'heartbeat').length;

function expectProtocolError(p: StompParser, input: string | Buffer, pattern: RegExp): void {
  let caught: unknown;
  try {
    p.push(input);
  } catch (error) {
    caught = error;
  }
  expect(caught).to.be.instanceOf(StompProtocolError);
  expect((caught as Error).message).to.match(pattern);
}

describe('STOMP frame parser', () => {
  it('parses one frame with headers and an empty body', () => {
    const [frame] = frames(parser().push('SUBSCRIBE\nid:sub-0\ndestination:/topic/simulations/a\n\n\0'));
    expect(frame.command).to.equal('SUBSCRIBE');
    expect(frame.headers).to.deep.equal([['id', 'sub-0'], ['destination', '/topic/simulations/a']]);
    expect(frame.body.length).to.equal(0);
  });

  it('accepts \\r\\n line ends in the command and header lines', () => {
    const [frame] = frames(parser().push('CONNECT\r\naccept-version:1.2\r\nhost:x\r\n\r\n\0'));
    expect(frame.command).to.equal('CONNECT');
    expect(header(frame, 'accept-version')).to.equal('1.2');
    expect(header(frame, 'host')).to.equal('x');
  });

  it('reassembles a frame split across many messages, byte by byte', () => {
    const p = parser();
    const bytes = Buffer.from('SEND\ndestination:/q\n\nhello ünïcode\0', 'utf8');
    const out: ParsedItem[] = [];
    for (let i = 0; i < bytes.length; i++) out.push(...p.push(bytes.subarray(i, i + 1)));
    const [frame] = frames(out);
    expect(frame.body.toString('utf8')).to.equal('hello ünïcode');
    expect(p.pending).to.equal(0);
  });

  it('splits several frames packed into one message, with heart-beat EOLs between them', () => {
    const out = parser().push('\nCONNECT\n\n\0\r\n\nSUBSCRIBE\nid:1\n\n\0\nDISCONNECT\nreceipt:77\n\n\0');
    expect(frames(out).map((f) => f.command)).to.deep.equal(['CONNECT', 'SUBSCRIBE', 'DISCONNECT']);
    expect(beats(out)).to.equal(4);
    expect(header(frames(out)[2], 'receipt')).to.equal('77');
  });

  it('reads a content-length body that contains NUL bytes', () => {
    const body = Buffer.from([1, 0, 2, 0, 3]);
    const p = parser();
    const out = p.push(Buffer.concat([Buffer.from(`SEND\ncontent-length:${body.length}\n\n`), body.subarray(0, 2)]));
    expect(out).to.have.length(0);
    const [frame] = frames(p.push(Buffer.concat([body.subarray(2), Buffer.from([0]), Buffer.from('\n')])));
    expect([...frame.body]).to.deep.equal([1, 0, 2, 0, 3]);
  });

  it('keeps the first of repeated headers (STOMP 1.2)', () => {
    const [frame] = frames(parser().push('SUBSCRIBE\nid:first\nid:second\n\n\0'));
    expect(header(frame, 'id')).to.equal('first');
  });

  it('unescapes headers per the negotiated version, never in CONNECT', () => {
    const p12 = parser();
    p12.version = '1.2';
    expect(header(frames(p12.push('SUBSCRIBE\nid:a\\cb\\nc\\\\d\\re\n\n\0'))[0], 'id')).to.equal('a:b\nc\\d\re');
    const p11 = parser();
    p11.version = '1.1';
    expect(header(frames(p11.push('SUBSCRIBE\nid:a\\cb\n\n\0'))[0], 'id')).to.equal('a:b');
    expectProtocolError(p11, 'SUBSCRIBE\nid:a\\rb\n\n\0', /undefined escape sequence.*1\.1/);
    const p10 = parser();
    p10.version = '1.0';
    expect(header(frames(p10.push('SUBSCRIBE\nid:a\\cb\n\n\0'))[0], 'id')).to.equal('a\\cb');
    const connect = parser();
    connect.version = '1.2';
    expect(header(frames(connect.push('CONNECT\nlogin:a\\cb\n\n\0'))[0], 'login')).to.equal('a\\cb');
  });

  it('rejects an undefined escape sequence in 1.2 (\\t)', () => {
    const p = parser();
    p.version = '1.2';
    expectProtocolError(p, 'SUBSCRIBE\nid:a\\tb\n\n\0', /undefined escape sequence/);
  });

  it('rejects a header line without a colon', () => {
    expectProtocolError(parser(), 'SUBSCRIBE\nno-colon-here\n\n\0', /header line without a name and colon/);
  });

  it('rejects a header with an empty name', () => {
    expectProtocolError(parser(), 'SUBSCRIBE\n:value\n\n\0', /header line without a name/);
  });

  it('rejects a command line that is not a command', () => {
    expectProtocolError(parser(), 'HELLO WORLD\n\n\0', /command line is not a command/);
  });

  it('rejects a NUL before the end of the headers', () => {
    expectProtocolError(parser(), 'SUBSCRIBE\nid:1\n\0', /NUL before the empty line/);
  });

  it('rejects a content-length that is not a number, and a body longer than its content-length', () => {
    expectProtocolError(parser(), 'SEND\ncontent-length:abc\n\nx\0', /content-length is not a non-negative integer/);
    expectProtocolError(parser(), 'SEND\ncontent-length:2\n\nabc\0', /longer than its content-length/);
  });

  it('rejects a lone carriage return between frames', () => {
    expectProtocolError(parser(), '\rX', /carriage return not followed by a line feed/);
  });

  it('rejects headers that are not UTF-8', () => {
    expectProtocolError(parser(), Buffer.concat([Buffer.from('SUBSCRIBE\nid:'), Buffer.from([0xff, 0xfe]), Buffer.from('\n\n\0')]), /not valid UTF-8/);
  });

  it('rejects a frame over the size limit, by content-length at once and by bytes while streaming', () => {
    expectProtocolError(parser(100), 'SEND\ncontent-length:500\n\n', /frame too large: the limit is 100 bytes/);
    const p = parser(100);
    expect(p.push(`SEND\n\n${'x'.repeat(50)}`)).to.have.length(0);
    expectProtocolError(p, 'y'.repeat(60), /frame too large/);
  });

  it('refuses all input after a protocol error', () => {
    const p = parser();
    expectProtocolError(p, 'BAD LINE\n\n\0', /not a command/);
    expectProtocolError(p, 'CONNECT\n\n\0', /already had a protocol error/);
  });
});

describe('STOMP frame serializer', () => {
  it('writes command, headers, content-length, body and NUL', () => {
    const bytes = serializeFrame({ command: 'MESSAGE', headers: { subscription: 's', destination: '/topic/simulations/x', skipped: undefined }, body: '{"a":"ü"}' }, '1.2');
    expect(bytes.toString('utf8')).to.equal('MESSAGE\nsubscription:s\ndestination:/topic/simulations/x\ncontent-length:10\n\n{"a":"ü"}\0');
  });

  it('escapes per version and never in CONNECTED', () => {
    const value = 'a:b\nc\\d\re';
    expect(serializeFrame({ command: 'MESSAGE', headers: { id: value } }, '1.2').toString()).to.contain('id:a\\cb\\nc\\\\d\\re\n');
    expect(serializeFrame({ command: 'MESSAGE', headers: { id: value } }, '1.1').toString()).to.contain('id:a\\cb\\nc\\\\d\re\n');
    expect(serializeFrame({ command: 'MESSAGE', headers: { id: value } }, '1.0').toString()).to.contain('id:a:b c\\d e\n');
    expect(serializeFrame({ command: 'CONNECTED', headers: { server: 'p:1' } }, '1.2').toString()).to.equal('CONNECTED\nserver:p:1\n\n\0');
  });

  it('round-trips escaped values through the parser for 1.1 and 1.2', () => {
    for (const version of ['1.1', '1.2'] as const) {
      const value = version === '1.2' ? 'x:y\nz\\w\rv' : 'x:y\nz\\w';
      expect(unescapeHeaderValue(escapeHeaderValue(value, version), version)).to.equal(value);
      const p = parser();
      p.version = version;
      const [frame] = frames(p.push(serializeFrame({ command: 'MESSAGE', headers: { k: value }, body: 'b' }, version)));
      expect(header(frame, 'k')).to.equal(value);
      expect(frame.body.toString()).to.equal('b');
    }
  });
});
