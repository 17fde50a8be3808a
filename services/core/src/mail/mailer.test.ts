import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { AppContext } from '../context.js';
import { LANGUAGES } from '../domain/constants.js';
import { createLogger } from '../logging/logger.js';
import { createTestContext } from '../testing/index.js';
import { FACTOR_CHANGE_OPERATIONS, type FactorChange } from './factor-changes.js';
import { Mailer } from './mailer.js';
import { MAIL_TEMPLATES, renderMail, type MailParams, type MailTemplate } from './templates.js';

/** A real SMTP server on a free loopback port that keeps what it receives, parsed. */
interface TestSmtpServer {
  url: string;
  /** Recipients answered with a temporary failure (451) until `accept`. */
  refuse(address: string): void;
  accept(address: string): void;
  receivedBy(address: string): ParsedMail[];
  close(): Promise<void>;
}

async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  const refused = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // A reverse lookup of 127.0.0.1 would slow every delivery down.
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address)) {
        callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    refuse: (address) => refused.add(address),
    accept: (address) => refused.delete(address),
    receivedBy: (address) => messages.filter((m) => addressesOf(m).includes(address)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function addressesOf(mail: ParsedMail): string[] {
  const to = mail.to === undefined ? [] : Array.isArray(mail.to) ? mail.to : [mail.to];
  return to.flatMap((group) => group.value.map((a) => a.address ?? ''));
}

const recipient = () => `${randomBytes(5).toString('hex')}@example.com`;

const PUBLIC_URL = 'https://id.example.com';

describe('Mailer', () => {
  let smtp: TestSmtpServer;
  let context: AppContext;
  const mailers: Mailer[] = [];
  /** A mailer on the test SMTP server; stopped after the test. */
  const mailer = (options: ConstructorParameters<typeof Mailer>[1] = {}, ctx: AppContext = context) => {
    const created = new Mailer(ctx, options);
    mailers.push(created);
    return created;
  };

  async function outboxRow(id: string) {
    const [row] = await context.dataSource.query(
      `SELECT *, next_attempt_at > now() AS in_future, row_to_json(m)::text AS everything FROM mail_outbox m WHERE id = $1`,
      [id],
    );
    return row as {
      status: string;
      attempts: number;
      last_error: string | null;
      sent_at: Date | null;
      subject: string;
      html: string;
      text: string;
      in_future: boolean;
      everything: string;
    };
  }

  const makeDue = (id: string) =>
    context.dataSource.query(`UPDATE mail_outbox SET next_attempt_at = now() - interval '1 second' WHERE id = $1`, [id]);

  before(async () => {
    smtp = await startSmtpServer();
    context = await createTestContext({ overrides: { 'mail.smtpUrl': smtp.url, 'server.publicUrl': PUBLIC_URL } });
  });

  afterEach(async () => {
    await Promise.all(mailers.splice(0).map((m) => m.stop()));
  });

  after(async () => {
    await smtp?.close();
  });

  it('delivers a password reset in Brazilian Portuguese with the link in both bodies', async () => {
    const to = recipient();
    const link = `${PUBLIC_URL}/account/changePassword?identityName=ana&token=${randomBytes(16).toString('base64url')}`;

    const result = await mailer().send({ to, template: 'password-reset', language: 'pt-BR', params: { name: 'Ana', link, minutes: 60 } });

    expect(result.status).to.equal('Sent');
    const [mail, ...others] = smtp.receivedBy(to);
    expect(others).to.have.length(0);
    expect(mail!.subject).to.equal('Redefina sua senha');
    expect(mail!.text).to.include(link).and.include('Olá, Ana').and.include('60 minutos');
    expect(mail!.html).to.include(`href="${link.replace('&', '&#38;')}"`);
    expect(mail!.messageId).to.equal(`<${result.id}@id.example.com>`);
    expect(mail!.headers.get('auto-submitted')).to.equal('auto-generated');
    const row = await outboxRow(result.id);
    expect(row).to.include({ status: 'Sent', attempts: 1, subject: '', html: '', text: '', last_error: null });
    expect(row.sent_at).to.be.an.instanceOf(Date);
  });

  it('keeps no plain-text code or link in the outbox, before delivery nor after', async () => {
    const to = recipient();
    const code = '482913';
    const token = randomBytes(16).toString('base64url');
    const secrets = [code, token, 'Your sign-in code', 'Reset your password'];
    smtp.refuse(to);
    const sender = mailer();

    const codeMail = await sender.send({ to, template: 'sign-in-code', language: 'en', params: { name: 'Bo', code, minutes: 10 } });
    const resetMail = await sender.send({
      to,
      template: 'password-reset',
      language: 'en',
      params: { name: 'Bo', link: `${PUBLIC_URL}/reset?token=${token}`, minutes: 60 },
    });

    for (const { id } of [codeMail, resetMail]) {
      const pending = await outboxRow(id);
      expect(pending.status).to.equal('Pending');
      for (const secret of secrets) expect(pending.everything).not.to.include(secret);
      for (const column of [pending.subject, pending.html, pending.text]) expect(context.secrets.decrypt(column)).to.be.a('string');
    }
    expect(context.secrets.decrypt((await outboxRow(codeMail.id)).text)).to.include(code);

    smtp.accept(to);
    await makeDue(codeMail.id);
    await makeDue(resetMail.id);
    expect(await sender.flush()).to.equal(2);

    expect(smtp.receivedBy(to).map((m) => m.text)).to.satisfy((texts: string[]) => texts.some((t) => t.includes(code)));
    for (const { id } of [codeMail, resetMail]) {
      const sent = await outboxRow(id);
      expect(sent).to.include({ status: 'Sent', subject: '', html: '', text: '' });
      for (const secret of secrets) expect(sent.everything).not.to.include(secret);
    }
  });

  it('leaves a refused mail pending with a backoff, and a later flush delivers it', async () => {
    const to = recipient();
    smtp.refuse(to);
    const sender = mailer();

    const result = await sender.send({ to, template: 'invitation', language: 'fr', params: { name: 'Léa', link: `${PUBLIC_URL}/join`, productName: 'Gatehouse' } });

    expect(result.status).to.equal('Pending');
    const pending = await outboxRow(result.id);
    expect(pending).to.include({ status: 'Pending', attempts: 1, in_future: true });
    expect(pending.last_error).to.include('451');
    expect(await sender.flush(), 'not due yet').to.equal(0);

    smtp.accept(to);
    await makeDue(result.id);
    expect(await sender.flush()).to.equal(1);

    const [mail, ...others] = smtp.receivedBy(to);
    expect(others).to.have.length(0);
    expect(mail!.subject).to.equal('Invitation à rejoindre Gatehouse');
    expect(await outboxRow(result.id)).to.include({ status: 'Sent', attempts: 2, last_error: null });
  });

  it('waits longer after each failure and marks the mail Failed when the delays run out', async () => {
    const to = recipient();
    smtp.refuse(to);
    const sender = mailer({ retryDelaysMs: [60_000, 3_600_000] });

    const { id } = await sender.send({ to, template: 'password-changed', language: 'de', params: { name: 'Jo', date: new Date() } });
    const delayOf = async () =>
      Number((await context.dataSource.query(`SELECT extract(epoch FROM next_attempt_at - now()) AS s FROM mail_outbox WHERE id = $1`, [id]))[0].s);
    expect(await delayOf()).to.be.within(50, 61);

    await makeDue(id);
    await sender.flush();
    expect(await delayOf()).to.be.within(3590, 3601);

    await makeDue(id);
    await sender.flush();
    const row = await outboxRow(id);
    expect(row).to.include({ status: 'Failed', attempts: 3, subject: '', html: '', text: '' });
    await makeDue(id);
    expect(await sender.flush(), 'a Failed mail is never retried').to.equal(0);
    expect(smtp.receivedBy(to)).to.have.length(0);
  });

  it('delivers each due mail exactly once when two mailers flush at the same time', async () => {
    const to = recipient();
    smtp.refuse(to);
    const [first, second] = [mailer(), mailer()];
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const params = { name: 'Gio', code: `77441${i}`, minutes: 5 };
      ids.push((await first.send({ to, template: 'sign-in-code', language: 'it', params })).id);
    }
    smtp.accept(to);
    for (const id of ids) await makeDue(id);

    const tried = await Promise.all([first.flush(), second.flush()]);

    expect(tried[0] + tried[1]).to.equal(5);
    const codes = smtp.receivedBy(to).map((m) => /77441\d/.exec(m.text ?? '')?.[0]);
    expect(codes.sort()).to.deep.equal(['774410', '774411', '774412', '774413', '774414']);
    for (const id of ids) expect(await outboxRow(id)).to.include({ status: 'Sent', attempts: 2 });
  });

  it('retries due mails in the background once started, and stop() waits for the run in progress', async () => {
    const to = recipient();
    smtp.refuse(to);
    const sender = mailer({ pollIntervalMs: 10 });
    const { id } = await sender.send({ to, template: 'password-changed', language: 'es', params: { name: 'Eva', date: '2025-03-12 14:05 UTC' } });
    smtp.accept(to);
    await makeDue(id);

    sender.start();
    const deadline = Date.now() + 10_000;
    while ((await outboxRow(id)).status !== 'Sent' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await sender.stop();

    expect((await outboxRow(id)).status).to.equal('Sent');
    expect(smtp.receivedBy(to).map((m) => m.subject)).to.deep.equal(['Se ha cambiado su contraseña']);
  });

  describe('without an SMTP server', () => {
    let lines: string[];
    /** The test context without SMTP, logging into `lines`. */
    const withoutSmtp = (nodeEnv: AppContext['config']['nodeEnv']): AppContext => {
      lines = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      });
      const config = { ...context.config, nodeEnv, mail: { ...context.config.mail, smtpUrl: undefined } };
      return { ...context, config, logger: createLogger('debug', sink) };
    };

    /** Runs `action`, returning what it wrote to stdout (and hiding it from the test report). */
    async function captureStdout(action: () => Promise<unknown>): Promise<string> {
      const written: string[] = [];
      const original = process.stdout.write;
      process.stdout.write = ((chunk: string | Uint8Array) => {
        written.push(chunk.toString());
        return true;
      }) as typeof process.stdout.write;
      try {
        await action();
      } finally {
        process.stdout.write = original;
      }
      return written.join('');
    }

    it('keeps the mail unsent, readable with readKept, and never logs the code', async () => {
      const to = recipient();
      const code = '918273';
      const sender = mailer({}, withoutSmtp('test'));
      let result!: { id: string; status: string };

      const printed = await captureStdout(async () => {
        result = await sender.send({ to, template: 'sign-in-code', language: 'pt-PT', params: { name: 'Rui', code, minutes: 10 } });
      });

      expect(result.status).to.equal('Kept');
      expect(printed).not.to.include(code);
      expect(await sender.flush()).to.equal(0);
      expect(smtp.receivedBy(to)).to.have.length(0);
      const row = await outboxRow(result.id);
      expect(row).to.include({ status: 'Kept', attempts: 0 });
      expect(row.everything).not.to.include(code);
      const kept = await sender.readKept(result.id);
      expect(kept).to.include({ id: result.id, to, template: 'sign-in-code', language: 'pt-PT', subject: 'O seu código de início de sessão' });
      expect(kept!.text).to.include(code);
      expect(kept!.html).to.include(code);
      expect(lines.filter((l) => l.includes(result.id))).to.have.length(1);
      expect(lines.join('')).not.to.include(code);
    });

    it('prints the plain-text body to stdout in development, still not to the log', async () => {
      const to = recipient();
      const link = `${PUBLIC_URL}/account/changePassword?token=${randomBytes(16).toString('base64url')}`;
      const sender = mailer({}, withoutSmtp('development'));
      let id = '';

      const printed = await captureStdout(async () => {
        ({ id } = await sender.send({ to, template: 'password-reset', language: 'fr', params: { name: 'Noé', link, minutes: 30 } }));
      });

      expect(printed).to.include(link).and.include(to).and.include(id);
      expect(lines.join('')).not.to.include(link);
      expect((await sender.readKept(id))!.text).to.include(link);
    });

    it('reads only kept mails', async () => {
      const to = recipient();
      const { id } = await mailer().send({ to, template: 'password-changed', language: 'en', params: { name: 'Al', date: new Date() } });
      expect(await mailer().readKept(id)).to.equal(undefined);
    });
  });
});

describe('renderMail', () => {
  const PARAMS: { [T in MailTemplate]: MailParams[T] } = {
    'sign-in-code': { name: 'Zoë Quinn', code: '493817', minutes: 15 },
    'password-reset': { name: 'Zoë Quinn', link: 'https://id.example.com/account/changePassword?token=t0k3n', minutes: 45 },
    'password-reset-locked': { name: 'Zoë Quinn' },
    'password-reset-pending': { name: 'Zoë Quinn' },
    'password-reset-professional': { name: 'Zoë Quinn' },
    invitation: { name: 'Zoë Quinn', link: 'https://id.example.com/account/invitation?token=inv1te', productName: 'Acme Portal' },
    'password-changed': { name: 'Zoë Quinn', date: new Date('2025-03-12T14:05:00Z') },
    'email-changed': { name: 'Zoë Quinn', date: new Date('2025-03-12T14:05:00Z') },
    'rights-request': {
      reference: '5f0c2a4e-rq',
      fullName: 'Zoë Quinn',
      email: 'zoe@example.com',
      account: 'zoe.q@example.com',
      requestType: 'Representative',
      representativeData: 'Counsel Ada Lovelace',
      requestDate: '24/11/2025',
      rights: 'Access, Supression',
      requestDetails: 'Please send me a copy.',
      documents: 'passport.pdf (120 KB)',
      receivedAt: new Date('2025-11-24T09:30:00Z'),
    },
    'operation-request': { name: 'Zoë Quinn', requester: 'Ada Lovelace', target: 'Alan Turing', tenant: 'Acme Spain' },
    'factor-changed': { name: 'Zoë Quinn', change: 'passkey_added', date: new Date('2025-03-12T14:05:00Z'), passkeyName: 'YubiKey 5 NFC' },
  };
  /** What each parameter must look like in the mail, whatever the language. */
  const EXPECTED: { [T in MailTemplate]: string[] } = {
    'sign-in-code': ['Zoë Quinn', '493817', '15'],
    'password-reset': ['Zoë Quinn', PARAMS['password-reset'].link, '45'],
    'password-reset-locked': ['Zoë Quinn'],
    'password-reset-pending': ['Zoë Quinn'],
    'password-reset-professional': ['Zoë Quinn'],
    invitation: ['Zoë Quinn', PARAMS.invitation.link, 'Acme Portal'],
    'password-changed': ['Zoë Quinn', '2025', '12', '14:05'],
    'email-changed': ['Zoë Quinn', '2025', '12', '14:05'],
    'rights-request': ['5f0c2a4e-rq', 'Zoë Quinn', 'zoe@example.com', 'zoe.q@example.com', 'Counsel Ada Lovelace', '24/11/2025', 'Please send me a copy.', 'passport.pdf (120 KB)', '09:30'],
    'operation-request': ['Zoë Quinn', 'Ada Lovelace', 'Alan Turing', 'Acme Spain'],
    'factor-changed': ['Zoë Quinn', 'YubiKey 5 NFC', '2025', '12', '14:05'],
  };

  for (const template of MAIL_TEMPLATES) {
    for (const language of LANGUAGES) {
      it(`writes ${template} in ${language} with every parameter in the subject, text and HTML`, () => {
        const mail = renderMail(template, language, PARAMS[template]);

        expect(mail.language).to.equal(language);
        expect(mail.subject.trim()).not.to.equal('');
        expect(mail.html).to.include(`<html lang="${language}">`);
        for (const value of EXPECTED[template]) {
          expect(mail.text, `text has ${value}`).to.include(value);
          expect(mail.html, `html has ${value}`).to.include(value);
        }
        if (language !== 'en') {
          const english = renderMail(template, 'en', PARAMS[template]);
          expect(mail.subject, 'translated subject').not.to.equal(english.subject);
          expect(mail.text, 'translated text').not.to.equal(english.text);
        }
      });
    }
  }

  describe('factor-changed', () => {
    const CHANGES = Object.keys(FACTOR_CHANGE_OPERATIONS) as FactorChange[];
    const date = new Date('2025-03-12T14:05:00Z');
    const write = (language: string, params: Partial<MailParams['factor-changed']>) =>
      renderMail('factor-changed', language, { name: 'Zoë', change: 'passkey_added', date, ...params });

    for (const language of LANGUAGES) {
      it(`says which of the ${CHANGES.length} changes happened in ${language}, each with its own subject, the date, and never its code`, () => {
        const mails = CHANGES.map((change) => write(language, { change }));

        expect(new Set(mails.map((mail) => mail.subject)).size).to.equal(CHANGES.length);
        for (const [i, mail] of mails.entries()) {
          expect(mail.text, CHANGES[i]).to.include('14:05').and.include('Zoë');
          expect(mail.text, CHANGES[i]).not.to.include(CHANGES[i]);
        }
        // A reset by an administrator is not answered with "if you made this change".
        const advice = (mail: { text: string }) => mail.text.split('\n\n').slice(-2, -1)[0];
        expect(advice(write(language, { change: 'factors_reset' }))).not.to.equal(advice(write(language, { change: 'totp_removed' })));
      });
    }

    it('names the passkey when there is a name, and speaks of a passkey otherwise', () => {
      for (const language of LANGUAGES) {
        expect(write(language, { change: 'passkey_removed', passkeyName: 'Laptop <Work>' }).html, language).to.include('Laptop &#60;Work&#62;');
        expect(write(language, { change: 'passkey_removed' }).text, language).not.to.include('undefined').and.not.to.include('""');
      }
    });

    it('writes the kinds a reset removed in the reader’s language, never as codes', () => {
      for (const language of LANGUAGES) {
        const all = write(language, { change: 'factors_reset', kinds: 'passkeys, totp, recoveryCodes' });
        const one = write(language, { change: 'factors_reset', kinds: 'totp' });
        expect(all.text, language).not.to.match(/\btotp\b|recoveryCodes/);
        expect(all.text, language).not.to.equal(one.text);
      }
      expect(write('en', { change: 'factors_reset', kinds: 'passkeys, totp' }).text).to.include('your passkeys, the authenticator app');
    });

    it('refuses a change it has no words for rather than sending an empty mail', () => {
      expect(() => write('fr', { change: 'bogus' as FactorChange })).to.throw(/bogus/);
    });
  });

  it('falls back to English for an unsupported language', () => {
    const mail = renderMail('sign-in-code', 'nl', PARAMS['sign-in-code']);
    expect(mail).to.include({ language: 'en', subject: 'Your sign-in code' });
  });

  it('escapes every parameter in the HTML and leaves the text as given', () => {
    const name = '<script>alert("x")</script>';
    const productName = `Tom & Jerry's <b>Portal</b>`;
    const link = 'https://id.example.com/join?a=1&b="2"&c=<3>';

    const mail = renderMail('invitation', 'en', { name, link, productName });

    expect(mail.html).not.to.include('<script').and.not.to.include('<b>').and.not.to.include('"2"');
    expect(mail.html).to.include('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(mail.html).to.include('Tom &#38; Jerry&#39;s &#60;b&#62;Portal&#60;/b&#62;');
    expect(mail.html).to.include('href="https://id.example.com/join?a=1&#38;b=&#34;2&#34;&#38;c=&#60;3&#62;"');
    expect(mail.text).to.include(name).and.include(productName).and.include(link);
  });

  it('links to nothing but the given link', () => {
    const mail = renderMail('password-reset', 'de', PARAMS['password-reset']);
    const urls = [...mail.html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1]);
    expect(urls).to.deep.equal([PARAMS['password-reset'].link, PARAMS['password-reset'].link]);
    expect(mail.html).not.to.match(/<img|url\(/i);
  });

  it('refuses a link that is not http(s)', () => {
    expect(() => renderMail('password-reset', 'en', { name: 'A', link: 'javascript:alert(1)', minutes: 5 })).to.throw(/http/);
  });
});
