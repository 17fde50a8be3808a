/**
 * A minimal browser for driving redirect chains over HTTP: keeps cookies (by name and path),
 * follows nothing by itself, and echoes the XSRF cookie in the header like the portal does.
 */
export class Browser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  constructor(readonly origin: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  private cookieHeader(pathname: string): string {
    return [...this.cookies.entries()]
      .filter(([, c]) => pathname.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private remember(res: Response, pathname: string) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((p) => p.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? pathname;
      const expired = attributes.some((a) => /^expires=thu, 01 jan 1970/i.test(a) || /^max-age=0$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }

  async request(method: string, url: string, init: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const target = new URL(url, this.origin);
    const headers: Record<string, string> = { ...init.headers };
    const cookie = this.cookieHeader(target.pathname);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
      const xsrf = this.cookie('XSRF-TOKEN');
      if (xsrf && !headers['x-xsrf-token']) headers['x-xsrf-token'] = xsrf;
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(target, { method, headers, body, redirect: 'manual' });
    this.remember(res, target.pathname);
    return res;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request('GET', url, { headers });
  }

  postJson(url: string, json: unknown, headers?: Record<string, string>) {
    return this.request('POST', url, { json, headers });
  }

  /** Follows redirects until one leaves the origin or a non-redirect answer comes. */
  async follow(url: string): Promise<{ response: Response; url: string }> {
    let current = new URL(url, this.origin).toString();
    for (let hops = 0; hops < 10; hops++) {
      if (!current.startsWith(this.origin)) return { response: new Response(null, { status: 200 }), url: current };
      const response = await this.get(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
      current = new URL(location, current).toString();
    }
    throw new Error('too many redirects');
  }
}
