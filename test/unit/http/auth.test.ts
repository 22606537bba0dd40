// API keys: which paths are protected, and the key comparison.
import { expect } from 'chai';
import { isProtectedPath, KeyChecker } from '../../../src/http/auth.js';

describe('API-key authentication', () => {
  it('protects the API except health, and leaves docs, WebSocket and static paths public', () => {
    for (const p of ['/api/v1/simulations', '/api/v1/circuits/parse', '/api/v1/analysis/rms', '/api/v1/simulations/x/stream']) expect(isProtectedPath(p), p).to.equal(true);
    for (const p of ['/api/v1/health', '/actuator/health', '/v3/api-docs', '/swagger-ui/index.html', '/docs', '/ws/info', '/ws-raw', '/', '/app.js']) expect(isProtectedPath(p), p).to.equal(false);
  });

  it('accepts any configured key and nothing else', () => {
    const checker = new KeyChecker(['alpha-key', 'beta']);
    expect(checker.accepts('alpha-key')).to.equal(true);
    expect(checker.accepts('beta')).to.equal(true);
    expect(checker.accepts('alpha')).to.equal(false);
    expect(checker.accepts('alpha-key ')).to.equal(false);
    expect(checker.accepts('')).to.equal(false);
    expect(checker.accepts(undefined)).to.equal(false);
    expect(new KeyChecker([]).accepts('anything')).to.equal(false);
  });
});
