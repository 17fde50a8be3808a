import type { AppContext } from '@gatehouse/core';
import type { Mailer, SendMailRequest } from '@gatehouse/core/mail';
import { buildUser, sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { cleanFileName } from './documents.js';
import type { RightsForm } from './form-upload.js';
import { RIGHTS_REQUESTS_PER_HOUR, RightsService } from './service.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const requestForm = (): RightsForm => ({
  fields: {
    email: 'ann@example.com',
    fullName: 'Ann Example',
    requestDate: '24/11/2025',
    requestType: 'Direct',
    rightsToExcercise: '["Access"]',
  },
  files: [{ name: 'id.png', buffer: PNG }],
});

/** A mailer that records what it is asked to send. */
function recordingMailer(): Mailer & { sent: SendMailRequest[] } {
  const sent: SendMailRequest[] = [];
  return Object.assign(Object.create(null) as Mailer, {
    sent,
    send: async (request: SendMailRequest) => {
      sent.push(request);
      return { id: 'mail', status: 'Kept' as const };
    },
  });
}

describe('RightsService', () => {
  let context: AppContext;

  before(async () => {
    context = await sharedTestContext();
  });

  const count = async (userId: string) =>
    Number((await context.dataSource.query('SELECT count(*) FROM rights_requests WHERE user_id = $1', [userId]))[0].count);

  it('stores the request without mailing anyone when no data-protection address is configured', async () => {
    const unset: AppContext = { ...context, config: { ...context.config, mail: { ...context.config.mail, dataProtectionEmail: undefined } } };
    const user = await buildUser(context.dataSource);
    const mailer = recordingMailer();

    expect(await new RightsService(unset, mailer).submit(user.id, requestForm())).to.deep.equal({ success: true, errors: [] });

    expect(await count(user.id)).to.equal(1);
    expect(mailer.sent).to.have.length(0);
  });

  it('mails the configured data-protection address a summary in the default language', async () => {
    const configured: AppContext = { ...context, config: { ...context.config, mail: { ...context.config.mail, dataProtectionEmail: 'dpo@example.com' } } };
    const user = await buildUser(context.dataSource);
    const mailer = recordingMailer();

    await new RightsService(configured, mailer).submit(user.id, requestForm());

    expect(mailer.sent).to.have.length(1);
    expect(mailer.sent[0]).to.deep.include({ to: 'dpo@example.com', template: 'rights-request', language: 'fr' });
    expect(mailer.sent[0]!.params).to.deep.include({ fullName: 'Ann Example', account: user.userName, requestDate: '24/11/2025', rights: 'Access', documents: 'id.png (1 KB)' });
  });

  it('stores exactly the hourly limit when more requests than that arrive at once', async () => {
    const user = await buildUser(context.dataSource);
    const service = new RightsService(context, recordingMailer());

    const outcomes = await Promise.allSettled(Array.from({ length: RIGHTS_REQUESTS_PER_HOUR + 5 }, () => service.submit(user.id, requestForm())));

    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(RIGHTS_REQUESTS_PER_HOUR);
    const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => (o.reason as { status: number }).status);
    expect(refusals).to.deep.equal([429, 429, 429, 429, 429]);
    expect(await count(user.id)).to.equal(RIGHTS_REQUESTS_PER_HOUR);
  });

  it('refuses a request from an account deleted since its token was issued', async () => {
    const user = await buildUser(context.dataSource);
    await context.dataSource.query('DELETE FROM users WHERE id = $1', [user.id]);
    const refused = await new RightsService(context, recordingMailer()).submit(user.id, requestForm()).catch((error: { status: number }) => error);
    expect(refused).to.include({ status: 401 });
  });
});

describe('cleanFileName', () => {
  it('keeps the name alone, without folders, control characters or surrounding spaces', () => {
    expect(cleanFileName('C:\\Users\\ann\\passport.pdf')).to.equal('passport.pdf');
    expect(cleanFileName('../../etc/id.png')).to.equal('id.png');
    expect(cleanFileName(' id\r\n card\u0000.png ')).to.equal('id card.png');
  });

  it('cuts a long name to 260 characters, keeping its extension', () => {
    const cut = cleanFileName(`${'é'.repeat(300)}.docx`);
    expect(Array.from(cut)).to.have.length(260);
    expect(cut.endsWith('é.docx')).to.equal(true);
  });
});
