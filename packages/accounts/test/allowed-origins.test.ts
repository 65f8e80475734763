import { MAX_ORIGIN_LENGTH, normaliseOrigin, normaliseOrigins } from '../src/index.js';

// The stored form must equal the Origin header a browser sends (RFC 6454 serialisation, as the
// WHATWG URL standard defines it), since tss-api compares the two as strings.
describe('allowed origins', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['HTTPS://App.Example.COM', 'https://app.example.com'],
    ['https://app.example.com/', 'https://app.example.com'],
    ['https://app.example.com:443', 'https://app.example.com'],
    ['http://app.example.com:80', 'http://app.example.com'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ])('%s is stored as %s', (text, origin) => {
    expect(normaliseOrigin(text)).toBe(origin);
  });

  it.each([
    'app.example.com',
    'ftp://app.example.com',
    'https://app.example.com/path',
    'https://app.example.com//',
    'https://app.example.com?',
    'https://app.example.com#',
    'https://user:pw@app.example.com',
    'https://*.example.com',
    'https://app.example.com:65536',
    'https://',
    'null',
    ' https://app.example.com',
    `https://${'a'.repeat(MAX_ORIGIN_LENGTH)}.example`,
  ])('%s is not an origin', (text) => {
    expect(normaliseOrigin(text)).toBeNull();
  });

  it('drops duplicates after normalising, keeping the first place', () => {
    expect(normaliseOrigins(['https://b.example', 'https://A.example', 'https://b.example:443/', 'https://a.example'])).toEqual(['https://b.example', 'https://a.example']);
  });
});
