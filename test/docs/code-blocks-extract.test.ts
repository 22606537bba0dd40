// How the doc tests read Markdown: fenced blocks with their language, the not-run and output
// markers right before a block, `no-run` in the info string, and the port substitutions.
import { expect } from 'chai';
import { extractBlocks, isRunnable, servicesNeeded, substitute } from './code-blocks.js';

const markdown = [
  '# Title',
  '```sh no-run: installs things',
  'npm install',
  '```',
  'Text.',
  '<!-- not-run: placeholder $SID -->',
  '```sh',
  'curl http://127.0.0.1:8080/api/v1/simulations/$SID',
  '```',
  '<!-- output: /u2 = 18\\.\\d/ -->',
  '```python',
  'print("u2 = 18.9")',
  '```',
  '```java',
  'int x = 1;',
  '```',
  '  ```sh',
  '  npx pesim info test/fixtures/gecko/buck_simple.ipes',
  '  ```',
].join('\n');

describe('documentation code blocks: extraction', () => {
  const blocks = extractBlocks('doc.md', markdown);

  it('finds every fenced block with its line, language and code', () => {
    expect(blocks.map((b) => [b.line, b.language])).to.deep.equal([[2, 'sh'], [7, 'sh'], [11, 'python'], [14, 'java'], [17, 'sh']]);
    expect(blocks[4].code).to.equal('npx pesim info test/fixtures/gecko/buck_simple.ipes');
    expect(blocks.filter(isRunnable).map((b) => b.line)).to.deep.equal([2, 7, 11, 17]);
  });

  it('reads the reasons not to run and the expected output', () => {
    expect(blocks[0].notRun).to.equal('installs things');
    expect(blocks[1].notRun).to.equal('placeholder $SID');
    expect(blocks[2].notRun).to.equal(undefined);
    expect(blocks[2].output?.test('u2 = 18.92')).to.equal(true);
    expect(blocks[2].output?.test('u2 = 17.1')).to.equal(false);
    expect(blocks[4].notRun).to.equal(undefined);
  });

  it('points blocks at the started services and the checkout\'s command', () => {
    expect(servicesNeeded(blocks[1].code)).to.deep.equal({ serve: true, jobq: false });
    const code = 'curl http://127.0.0.1:8080/a; x("http://127.0.0.1:1099/RPC2"); B=http://127.0.0.1:8000; npx pesim run f';
    expect(substitute(code, { http: 40001, rmi: 40002, jobq: 40003 }))
      .to.equal('curl http://127.0.0.1:40001/a; x("http://127.0.0.1:40002/RPC2"); B=http://127.0.0.1:40003; pesim run f');
  });
});
