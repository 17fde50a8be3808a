import { describe, expect, it } from 'vitest';
import { app, homeInfo } from '../test-utils';
import { decideHome } from './home-rules';

const clientPortal = app({ id: 'client-portal', title: 'Client portal', privateUrl: 'https://clients.example.com/' });
const crm = app({ id: 'crm', title: 'CRM', privateUrl: 'https://crm.example.com/' });
const billing = app({ id: 'billing', title: 'billing' });
const identity = app({ id: '1', title: 'Identity Management', privateUrl: 'https://id.example.com/admin' });
const beta = app({ id: 'beta', title: 'Beta', prerelease: true });
const wiki = app({ id: 'wiki', title: 'Wiki', hasAccess: false, publicUrl: 'https://wiki.example.com/about', privateUrl: null });
const hidden = app({ id: 'secret', title: 'Secret', hasAccess: false, publicUrl: null });

const staff = { area: 'Default', showPrerelease: false };
const customer = { area: 'Customers', showPrerelease: false };

describe('decideHome', () => {
  it('sends a customer without Identity Management to the client portal', () => {
    expect(decideHome(homeInfo([crm, billing, clientPortal], 'client-portal'), customer)).toEqual({
      kind: 'redirect',
      url: 'https://clients.example.com/',
      reason: 'client-portal',
    });
  });

  it('keeps a customer who may open Identity Management on the home', () => {
    const decision = decideHome(homeInfo([identity, crm, clientPortal], 'client-portal'), customer);
    expect(decision.kind).toBe('tiles');
  });

  it('applies the other rules to a customer when no client portal is configured', () => {
    expect(decideHome(homeInfo([crm], null), customer)).toMatchObject({ kind: 'redirect', reason: 'single-application' });
  });

  it('sends a user with exactly one application to it', () => {
    expect(decideHome(homeInfo([crm, wiki, beta]), staff)).toEqual({
      kind: 'redirect',
      url: 'https://crm.example.com/',
      reason: 'single-application',
    });
  });

  it('does not redirect when the only application is Identity Management', () => {
    expect(decideHome(homeInfo([identity]), staff)).toEqual({ kind: 'tiles', accessible: [identity], askUs: [] });
  });

  it('shows tiles sorted by title, and Ask us! for applications with a public URL', () => {
    expect(decideHome(homeInfo([crm, wiki, identity, billing, hidden]), staff)).toEqual({
      kind: 'tiles',
      accessible: [billing, crm, identity],
      askUs: [wiki],
    });
  });

  it('hides prerelease applications unless ?prerelease is present', () => {
    const info = homeInfo([crm, billing, beta]);
    expect(decideHome(info, staff)).toMatchObject({ accessible: [billing, crm] });
    expect(decideHome(info, { ...staff, showPrerelease: true })).toMatchObject({ accessible: [beta, billing, crm] });
  });

  it('counts only released applications for the single-application redirect', () => {
    expect(decideHome(homeInfo([crm, beta]), { ...staff, showPrerelease: true })).toMatchObject({ kind: 'redirect' });
  });

  it('shows no tile (the empty message) to a user without applications', () => {
    expect(decideHome(homeInfo([wiki]), staff)).toEqual({ kind: 'tiles', accessible: [], askUs: [wiki] });
  });
});
