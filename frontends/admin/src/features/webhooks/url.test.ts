import { describe, expect, it } from 'vitest';
import { isWebhookUrl } from './url';

describe('isWebhookUrl (the server’s first check of an address)', () => {
  it.each([
    'https://hooks.example.com/gatehouse',
    'https://hooks.example.com:8443/in?source=gatehouse',
    'http://localhost:8080/hook',
    'http://api.localhost/hook',
    'http://127.0.0.1:3000/',
    'http://127.12.0.1/',
    'http://[::1]:9000/hook',
  ])('takes %s', (url) => {
    expect(isWebhookUrl(url)).toBe(true);
  });

  it.each([
    'hooks.example.com/gatehouse',
    'http://hooks.example.com/',
    'http://10.0.0.5/hook',
    'ftp://hooks.example.com/',
    'https://user:secret@hooks.example.com/',
    'https://hooks.example.com/in#part',
    'https://',
  ])('refuses %s', (url) => {
    expect(isWebhookUrl(url)).toBe(false);
  });
});
