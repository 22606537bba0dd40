// CONNECT negotiation (version, heart-beats) and the realtime settings check.
import { expect } from 'chai';
import { negotiateHeartBeat, negotiateVersion } from '../../../src/realtime/stomp/negotiate.js';
import { resolveRealtimeSettings } from '../../../src/realtime/settings.js';

describe('STOMP negotiation', () => {
  it('picks the highest common version, 1.0 without accept-version, and refuses unknown ones', () => {
    expect(negotiateVersion('1.0,1.1,1.2')).to.deep.equal({ ok: true, version: '1.2' });
    expect(negotiateVersion('1.1, 1.0')).to.deep.equal({ ok: true, version: '1.1' });
    expect(negotiateVersion('1.0')).to.deep.equal({ ok: true, version: '1.0' });
    expect(negotiateVersion(undefined)).to.deep.equal({ ok: true, version: '1.0' });
    expect(negotiateVersion('2.0,3.1')).to.deep.equal({ ok: false, offered: '2.0,3.1' });
  });

  it('negotiates each heart-beat direction as the larger wish, off when either side says 0', () => {
    const server = { sendMs: 10_000, receiveMs: 5_000 };
    const both = negotiateHeartBeat('4000,20000', server);
    expect(both).to.deep.equal({ ok: true, plan: { outgoingMs: 20_000, incomingMs: 5_000, header: '10000,5000' } });
    expect(negotiateHeartBeat('0,0', server)).to.deep.include({ ok: true });
    expect(negotiateHeartBeat(undefined, server)).to.deep.equal({ ok: true, plan: { outgoingMs: 0, incomingMs: 0, header: '10000,5000' } });
    expect(negotiateHeartBeat('7000,0', { sendMs: 0, receiveMs: 1000 })).to.deep.equal({ ok: true, plan: { outgoingMs: 0, incomingMs: 7000, header: '0,1000' } });
  });

  it('refuses a malformed heart-beat header', () => {
    const result = negotiateHeartBeat('ten,20', { sendMs: 1, receiveMs: 1 });
    expect(result.ok).to.equal(false);
    expect(result.ok ? '' : result.message).to.match(/two non-negative integers/);
    expect(negotiateHeartBeat('-1,5', { sendMs: 1, receiveMs: 1 }).ok).to.equal(false);
  });
});

describe('realtime settings', () => {
  it('fills defaults and keeps overrides', () => {
    const settings = resolveRealtimeSettings({ limits: { maxConnections: 5 }, heartBeat: { sendMs: 0 } });
    expect(settings.limits.maxConnections).to.equal(5);
    expect(settings.limits.maxFrameBytes).to.equal(65_536);
    expect(settings.heartBeat).to.deep.equal({ sendMs: 0, receiveMs: 10_000, graceMs: 5_000 });
    expect(settings.rawPath).to.equal('/ws-raw');
    expect(settings.sockjsPrefix).to.equal('/ws');
  });

  it('names the bad setting', () => {
    expect(() => resolveRealtimeSettings({ limits: { maxFrameBytes: 10 } })).to.throw(RangeError, /limits\.maxFrameBytes must be an integer ≥ 64/);
    expect(() => resolveRealtimeSettings({ heartBeat: { graceMs: 1.5 } })).to.throw(RangeError, /heartBeat\.graceMs/);
    expect(() => resolveRealtimeSettings({ rawPath: 'ws-raw' })).to.throw(RangeError, /rawPath must be a path/);
    expect(() => resolveRealtimeSettings({ rawPath: '/ws/raw' })).to.throw(RangeError, /must lie outside sockjsPrefix/);
  });
});
