import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_SUBJECT_RIGHTS, resolveLinks } from './links';

describe('resolveLinks', () => {
  it('hides what is not configured, except the rights page of the profile area', () => {
    expect(resolveLinks({}, {} as ImportMetaEnv)).toEqual({
      helpdesk: undefined,
      termsOfUse: undefined,
      dataSubjectRights: { href: DEFAULT_DATA_SUBJECT_RIGHTS, external: false },
      cookiePolicy: undefined,
    });
  });

  it('prefers the service configuration to the build values', () => {
    const env = { VITE_HELPDESK_URL: 'https://build.example.com/help', VITE_COOKIE_POLICY_URL: '/cookies' } as ImportMetaEnv;
    const links = resolveLinks({ links: { helpdesk: 'https://help.example.com/' } }, env);
    expect(links.helpdesk).toEqual({ href: 'https://help.example.com/', external: true });
    expect(links.cookiePolicy).toEqual({ href: '/cookies', external: false });
  });

  it('treats a protocol-relative address as another site and an empty one as none', () => {
    const links = resolveLinks({ links: { termsOfUse: '//cdn.example.com/terms.pdf', helpdesk: '  ' } }, {} as ImportMetaEnv);
    expect(links.termsOfUse?.external).toBe(true);
    expect(links.helpdesk).toBeUndefined();
  });
});
