/**
 * Whether an address may be given to a webhook endpoint, as the server first checks it: absolute,
 * https (http only on this computer: localhost, a *.localhost name, 127.0.0.0/8 or [::1]), without
 * credentials nor fragment. Whether the host is on a private network depends on the deployment:
 * the server says so (`webhooks.private_address`) under the field.
 */
export function isWebhookUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopback(url.hostname);
}

/** The URL parser writes IPv4 hosts in dotted decimal and IPv6 ones compressed, within brackets. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1';
}
