import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

import { callServer, parseServerUrl } from './remote';

describe('CLI --url mode', () => {
  describe('parseServerUrl', () => {
    it('takes an http(s) base, with a path prefix', () => {
      expect(parseServerUrl('http://localhost:3004').href).toBe('http://localhost:3004/');
      expect(parseServerUrl('https://api.example.com/cb').pathname).toBe('/cb');
    });

    it.each([
      ['another scheme', 'ftp://example.com'],
      ['a file URL', 'file:///etc/passwd'],
      ['no URL', 'localhost:3004 please'],
      ['credentials in the URL', 'http://user:secret@127.0.0.1:3004'],
      ['a query', 'http://127.0.0.1:3004/?x=1'],
      ['a fragment', 'http://127.0.0.1:3004/#x'],
      ['a hostile length', `http://127.0.0.1/${'a'.repeat(3000)}`],
    ])('refuses %s', (_what, value) => {
      expect(() => parseServerUrl(value)).toThrow(/must/);
    });
  });

  describe('callServer', () => {
    let server: Server;
    let base: URL;
    const seen: Array<{ url?: string; authorization?: string; body: string }> = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          seen.push({ url: req.url, authorization: req.headers.authorization, body });
          if (req.url?.endsWith('/forbidden')) {
            res.writeHead(403, { 'content-type': 'application/problem+json' });
            res.end(JSON.stringify({ error: 'insufficient_scope', message: 'lacks a scope' }));
          } else if (req.url?.endsWith('/chunked')) {
            res.writeHead(200, { 'content-type': 'application/json' }); // no content-length
            res.write(`{"pad":"${'x'.repeat(4096)}`);
            res.end(`${'y'.repeat(4096)}"}`);
          } else if (req.url?.endsWith('/html')) {
            res.writeHead(502, { 'content-type': 'text/html' });
            res.end('<html>bad gateway</html>');
          } else {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ ok: true }));
          }
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix/`);
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('POSTs the body under the base path with the key as a Bearer token', async () => {
      await expect(
        callServer({ url: base, apiKey: 'cb_k' }, '/search', { query: 'q' }),
      ).resolves.toEqual({ ok: true });
      expect(seen.at(-1)).toEqual({
        url: '/prefix/search',
        authorization: 'Bearer cb_k',
        body: '{"query":"q"}',
      });
    });

    it('turns a problem into an error with the status and code, never the key', async () => {
      const failure = callServer({ url: base, apiKey: 'cb_secret' }, '/forbidden', {});
      await expect(failure).rejects.toThrow('HTTP 403 insufficient_scope: lacks a scope');
      await expect(failure).rejects.not.toThrow(/cb_secret/);
      await expect(callServer({ url: base }, '/html', {})).rejects.toThrow(
        /answered HTTP 502 without JSON/,
      );
    });

    it('refuses an answer past the cap also when the server sends no length', async () => {
      await expect(callServer({ url: base }, '/chunked', {}, 1024)).rejects.toThrow(
        /answered more than 1024 bytes/,
      ); // before: only a content-length was checked, a chunked answer was read whole
      await expect(callServer({ url: base }, '/chunked', {}, 1 << 20)).resolves.toMatchObject({
        pad: expect.any(String),
      });
    });

    it('never sends a key in clear to another host unless told to', async () => {
      const remote = { url: new URL('http://context-bridge.example:3004'), apiKey: 'cb_secret' };
      const refusal = callServer(remote, '/search', {});
      await expect(refusal).rejects.toThrow(/refusing to send the API key in clear/);
      await expect(refusal).rejects.not.toThrow(/cb_secret/);
      // Loopback in clear is fine (the key never leaves the machine); so is an explicit opt-in.
      await expect(callServer({ url: base, apiKey: 'k' }, '/search', {})).resolves.toEqual({
        ok: true,
      });
      await expect(callServer({ ...remote, insecureHttp: true }, '/search', {})).rejects.toThrow(
        /did not answer/,
      ); // it tried: the host does not exist
    });

    it('says which server did not answer', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise((resolve) => closed.close(resolve));
      await expect(
        callServer({ url: new URL(`http://127.0.0.1:${port}`) }, '/search', {}),
      ).rejects.toThrow(`http://127.0.0.1:${port} did not answer (ECONNREFUSED)`);
    });
  });
});
