import { Lifecycle } from './lifecycle';

describe('Lifecycle', () => {
  it('starts, becomes ready, then stopping for good', () => {
    const lifecycle = new Lifecycle();
    expect(lifecycle.state).toBe('starting');
    lifecycle.markReady();
    expect(lifecycle.state).toBe('ready');
    lifecycle.markStopping();
    expect(lifecycle.stopping).toBe(true);
    lifecycle.markReady();
    expect(lifecycle.state).toBe('stopping');
  });
});
