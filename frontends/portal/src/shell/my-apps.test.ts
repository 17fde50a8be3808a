import { describe, expect, it } from 'vitest';
import { app } from '../test-utils';
import { myAppsView } from './my-apps';

const titles = (apps: { title: string }[]) => apps.map((a) => a.title);

describe('myAppsView', () => {
  it('sorts the accessible applications by title, ignoring case and accents', () => {
    const view = myAppsView(
      [app({ id: 'z', title: 'zeta' }), app({ id: 'e', title: 'Élan' }), app({ id: 'a', title: 'alpha' }), app({ id: 'b', title: 'Beta' })],
      'portal',
    );
    expect(titles(view.accessible)).toEqual(['alpha', 'Beta', 'Élan', 'zeta']);
  });

  it('uses one column up to four applications and two above', () => {
    const apps = ['A', 'B', 'C', 'D', 'E'].map((title) => app({ id: title, title }));
    expect(myAppsView(apps.slice(0, 4), 'portal').columns).toBe(1);
    expect(myAppsView(apps, 'portal').columns).toBe(2);
  });

  it('hides prerelease applications and the current one', () => {
    const view = myAppsView(
      [app({ id: 'portal', title: 'Portal' }), app({ id: 'beta', title: 'Beta', prerelease: true }), app({ id: 'crm', title: 'CRM' })],
      'portal',
    );
    expect(titles(view.accessible)).toEqual(['CRM']);
  });

  it('lists applications without access but with a public URL under Ask us!', () => {
    const view = myAppsView(
      [
        app({ id: 'wiki', title: 'Wiki', hasAccess: false, publicUrl: 'https://wiki.example.com' }),
        app({ id: 'secret', title: 'Secret', hasAccess: false, publicUrl: null }),
        app({ id: 'crm', title: 'CRM' }),
      ],
      'portal',
    );
    expect(titles(view.askUs)).toEqual(['Wiki']);
    expect(titles(view.accessible)).toEqual(['CRM']);
  });

  it('lists Identity Management when homeInfo grants it (Administrators), never as Ask us!', () => {
    const identity = app({ id: '1', title: 'Identity Management' });
    expect(titles(myAppsView([identity], 'portal').accessible)).toEqual(['Identity Management']);

    const refused = { ...identity, hasAccess: false, publicUrl: 'https://id.example.com' };
    const view = myAppsView([refused], 'portal');
    expect(view.accessible).toEqual([]);
    expect(view.askUs).toEqual([]);
  });
});
