import type { UserNotification } from '@gatehouse/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../test-utils';
import { PAGE_TEST_TIMEOUT } from '../directory/test-helpers';
import NotificationsCenter from '../notifications/NotificationsCenter';
import { sockets } from '../notifications/testing/fake-socket-io';

/** The notification the server writes to an endpoint's owners when it turns the endpoint off (its text is the server's). */
const disabled: UserNotification = {
  id: '3c2b1a09-8f7e-4d6c-8b5a-493827160504',
  type: 'WebhookDisabled',
  description: 'The webhook endpoint https://siem.example.com/in received nothing for a day and was turned off. Check it, then turn it on again in the console.',
  readed: false,
  data: null,
  userId: 'admin-1',
  creationTime: new Date(Date.now() - 2 * 60_000).toISOString(),
};

const api: ApiRoutes = {
  'GET /api/v1/admin/notifications/active': () => jsonResponse({ items: [disabled], count: 1, unread: 1 }),
  'PUT /api/v1/admin/notifications': () => jsonResponse({ marked: 1, unread: 0 }),
  'GET /api/v1/admin/tasks/active': () => jsonResponse({ items: [], count: 0 }),
};

describe('a webhook turned off, in the notifications flyout', { timeout: PAGE_TEST_TIMEOUT }, () => {
  beforeEach(() => {
    sockets.length = 0;
  });

  it.each([
    ['en', /^Notifications/, 'Webhook turned off'],
    ['de', /^Benachrichtigungen/, 'Webhook abgeschaltet'],
  ] as const)('is named in %s, with the server’s text', async (language, bell, label) => {
    await renderPage(<NotificationsCenter />, { namespaces: ['admin', 'notifications'], api, language });

    fireEvent.click(await screen.findByRole('button', { name: bell }));

    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText(label)).toBeInTheDocument();
    expect(within(drawer).getByText(disabled.description!)).toBeInTheDocument();
  });
});
