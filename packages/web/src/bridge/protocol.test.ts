import { describe, expect, it } from 'vitest';
import {
  BRIDGE_CHANNEL,
  MAX_BRIDGE_BODY,
  readFrameMessage,
  readPageMessage,
  type WidgetFrameProps,
} from './protocol.js';

const props: WidgetFrameProps = {
  accountId: 'a1',
  workspaceId: 'a1',
  widgetConfigId: 'wc1',
  collapsed: false,
  isPinned: true,
  health: { status: 'degraded', message: 'Reconnect Acme Notes' },
  integrationMetadata: { slug: 'acme-notes', name: 'Acme Notes', version: '3', publisher: 'Acme' },
};
const fetchMessage = {
  channel: BRIDGE_CHANNEL,
  type: 'fetch',
  id: 1,
  method: 'POST',
  path: '/api/integrations/acme-notes/actions/add-note?accountId=a1',
  headers: { 'content-type': 'application/json' },
  body: '{"title":"x"}',
};

describe('readFrameMessage', () => {
  it('reads ready, resize and fetch', () => {
    expect(readFrameMessage({ channel: BRIDGE_CHANNEL, type: 'ready' })).toEqual({
      channel: BRIDGE_CHANNEL,
      type: 'ready',
    });
    expect(readFrameMessage({ channel: BRIDGE_CHANNEL, type: 'resize', height: 240 })).toMatchObject({
      height: 240,
    });
    expect(readFrameMessage(fetchMessage)).toEqual(fetchMessage);
    expect(readFrameMessage({ ...fetchMessage, headers: {}, body: null })).toMatchObject({
      headers: {},
      body: null,
    });
  });

  it.each([
    ['no channel', { type: 'ready' }],
    ['another channel', { channel: 'other', type: 'ready' }],
    ['a string', 'ready'],
    ['null', null],
    ['an unknown type', { channel: BRIDGE_CHANNEL, type: 'navigate', url: '/' }],
    ['an extra field', { channel: BRIDGE_CHANNEL, type: 'ready', extra: 1 }],
    ['a negative height', { channel: BRIDGE_CHANNEL, type: 'resize', height: -1 }],
    ['an infinite height', { channel: BRIDGE_CHANNEL, type: 'resize', height: Number.POSITIVE_INFINITY }],
    ['a string height', { channel: BRIDGE_CHANNEL, type: 'resize', height: '100' }],
    ['a fractional id', { ...fetchMessage, id: 1.5 }],
    ['an unknown method', { ...fetchMessage, method: 'CONNECT' }],
    ['a lowercase method', { ...fetchMessage, method: 'post' }],
    ['an empty path', { ...fetchMessage, path: '' }],
    ['a path too long', { ...fetchMessage, path: `/${'a'.repeat(5000)}` }],
    ['a cookie header', { ...fetchMessage, headers: { cookie: 'platform_session=x' } }],
    [
      'an authorization header',
      { ...fetchMessage, headers: { 'content-type': 'application/json', authorization: 'Bearer x' } },
    ],
    ['a body over 1 MiB', { ...fetchMessage, body: 'x'.repeat(MAX_BRIDGE_BODY + 1) }],
    ['a body that is an object', { ...fetchMessage, body: { title: 'x' } }],
  ])('ignores %s', (_name, data) => {
    expect(readFrameMessage(data)).toBeUndefined();
  });
});

describe('readPageMessage', () => {
  it('reads init, props and fetch-result', () => {
    expect(readPageMessage({ channel: BRIDGE_CHANNEL, type: 'init', props })).toEqual({
      channel: BRIDGE_CHANNEL,
      type: 'init',
      props,
    });
    expect(
      readPageMessage({ channel: BRIDGE_CHANNEL, type: 'init', props: { ...props, health: null } }),
    ).toMatchObject({ props: { health: null } });
    expect(readPageMessage({ channel: BRIDGE_CHANNEL, type: 'props', props: { collapsed: true } })).toEqual({
      channel: BRIDGE_CHANNEL,
      type: 'props',
      props: { collapsed: true },
    });
    const result = {
      channel: BRIDGE_CHANNEL,
      type: 'fetch-result',
      id: 3,
      status: 200,
      body: '{"ok":true,"data":1}',
      contentType: 'application/json',
    };
    expect(readPageMessage(result)).toEqual(result);
  });

  it.each([
    ['init without props', { channel: BRIDGE_CHANNEL, type: 'init' }],
    [
      'init with a numeric accountId',
      { channel: BRIDGE_CHANNEL, type: 'init', props: { ...props, accountId: 1 } },
    ],
    ['init with an extra prop', { channel: BRIDGE_CHANNEL, type: 'init', props: { ...props, token: 'x' } }],
    [
      'init with an unknown health',
      { channel: BRIDGE_CHANNEL, type: 'init', props: { ...props, health: { status: 'fine' } } },
    ],
    [
      'init without metadata',
      { channel: BRIDGE_CHANNEL, type: 'init', props: { ...props, integrationMetadata: undefined } },
    ],
    ['props changing the account', { channel: BRIDGE_CHANNEL, type: 'props', props: { accountId: 'other' } }],
    ['props with a string flag', { channel: BRIDGE_CHANNEL, type: 'props', props: { collapsed: 'yes' } }],
    [
      'a status out of range',
      {
        channel: BRIDGE_CHANNEL,
        type: 'fetch-result',
        id: 1,
        status: 99,
        body: '',
        contentType: 'text/plain',
      },
    ],
    [
      'a result body over 1 MiB',
      {
        channel: BRIDGE_CHANNEL,
        type: 'fetch-result',
        id: 1,
        status: 200,
        body: 'x'.repeat(MAX_BRIDGE_BODY + 1),
        contentType: 'text/plain',
      },
    ],
    ['a frame message', { channel: BRIDGE_CHANNEL, type: 'ready' }],
  ])('ignores %s', (_name, data) => {
    expect(readPageMessage(data)).toBeUndefined();
  });
});
