import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { expect } from 'chai';
import { Browser } from './support/browser.js';
import { PKCE, accessTokenAfter } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';
import { MailCatcher } from './support/smtp.js';

const PASSWORD = 'Correct-Horse-42!';
const DPO = 'dpo@example.com';
const USERS = ['ann', 'ben', 'cleo', 'dan', 'eve', 'fay'];
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
  - { id: crm, name: crm, displayName: CRM, type: public, firstParty: true, redirectUris: ['\${url}/crm/callback'] }
users:
${USERS.map((name) => `  - { userName: ${name}@example.com, area: Default, language: en, password: '${PASSWORD}' }`).join('\n')}
`;
const PATH = '/api/v1/profile/excerciseRights';

// Real, if tiny, documents of each accepted type.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('This program cannot be run in DOS mode.')]);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

/** An OLE compound file, with (a Word .doc) or without (an installer, say) a WordDocument stream. */
function compoundFile(word: boolean): Buffer {
  const file = Buffer.alloc(1536);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(file);
  if (word) Buffer.from('WordDocument', 'utf16le').copy(file, 1024);
  return file;
}

/** A zip of stored (uncompressed) entries. */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const DOCX = zip({
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  'word/document.xml': '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>',
});

/** A PNG padded to `bytes`: its content is still recognised as a PNG. */
const pngOf = (bytes: number) => Buffer.concat([PNG, Buffer.alloc(bytes - PNG.length, 7)]);

interface Doc {
  name: string;
  content: Buffer;
}

const VALID_FIELDS = {
  email: 'ann.data@example.com',
  fullName: 'Ann Example',
  requestDate: '24/11/2025',
  requestType: 'Direct',
  rightsToExcercise: JSON.stringify(['Access', 'Supression']),
  requestDetails: 'Please send me a copy of my data.',
};

function form(fields: Record<string, string>, docs: Doc[] = [], field = 'files[]'): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const doc of docs) body.append(field, new Blob([new Uint8Array(doc.content)]), doc.name);
  return body;
}

interface Answer {
  status: number;
  body: { success?: boolean; errors?: Array<{ field: string; code: string; message: string } | string>; code?: string; message?: string };
  headers: Headers;
}

describe('POST /api/v1/profile/excerciseRights', function () {
  this.timeout(120_000);
  let server: TestServer;
  let smtp: MailCatcher;
  const tokens: Record<string, string> = {};

  /** Signs in with the password and redeems the code: an access token issued to `client`. */
  async function tokenFor(userName: string, client = 'spa'): Promise<string> {
    const browser = new Browser(server.url);
    const params = new URLSearchParams({ client_id: client, response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/${client}/callback`, ...PKCE });
    await browser.get(`/oidc/auth?${params}`);
    await browser.get('/api/v1/config');
    const res = await browser.postJson('/api/v1/account/login', { userName, password: PASSWORD });
    return accessTokenAfter(server, browser, ((await res.json()) as { redirectTo: string }).redirectTo, client);
  }

  async function send(user: string, body: FormData | string, language = 'en', headers: Record<string, string> = {}): Promise<Answer> {
    tokens[user] ??= await tokenFor(`${user}@example.com`);
    const res = await fetch(`${server.url}${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[user]}`, 'accept-language': language, ...headers },
      body,
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
  }

  const messages = (answer: Answer) => (answer.body.errors ?? []).map((e) => (typeof e === 'string' ? e : e.message));
  const db = () => server.server.context.dataSource;
  const requestsOf = async (user: string) =>
    db().query(
      `SELECT r.* FROM rights_requests r JOIN users u ON u.id = r.user_id WHERE u.normalized_user_name = $1 ORDER BY r.created_at`,
      [`${user}@example.com`],
    );

  before(async () => {
    smtp = await new MailCatcher().start();
    server = await startTestServer({
      bootstrap: BOOTSTRAP,
      overrides: { 'mail.smtpUrl': smtp.url, 'mail.dataProtectionEmail': DPO, 'oidc.portalClientId': 'spa' },
    });
  });
  after(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  it('stores the request and its documents in one go, and answers { success: true, errors: [] }', async () => {
    const docs = [
      { name: 'passport.pdf', content: PDF },
      { name: 'Carte d’identité.png', content: PNG },
      { name: 'selfie.JPEG', content: JPEG },
      { name: 'mandate.docx', content: DOCX },
      { name: 'letter.doc', content: compoundFile(true) },
    ];
    const answer = await send('ann', form({ ...VALID_FIELDS, representativeData: '  ' }, docs));
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.deep.equal({ success: true, errors: [] });

    const [stored, ...others] = await requestsOf('ann');
    expect(others).to.have.length(0);
    expect(stored).to.include({ full_name: 'Ann Example', email: 'ann.data@example.com', request_type: 'Direct', representative_data: null, request_details: 'Please send me a copy of my data.' });
    expect(stored.rights).to.deep.equal(['Access', 'Supression']);
    const [{ day }] = await db().query(`SELECT to_char(request_date, 'YYYY-MM-DD') AS day FROM rights_requests WHERE id = $1`, [stored.id]);
    expect(day).to.equal('2025-11-24');

    const files = await db().query('SELECT file_name, content_type, size, content FROM rights_request_files WHERE rights_request_id = $1 ORDER BY file_name', [stored.id]);
    expect(files.map((f: { file_name: string; content_type: string }) => [f.file_name, f.content_type])).to.deep.equal([
      ['Carte d’identité.png', 'image/png'],
      ['letter.doc', 'application/msword'],
      ['mandate.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['passport.pdf', 'application/pdf'],
      ['selfie.JPEG', 'image/jpeg'],
    ]);
    const pdf = files.find((f: { file_name: string }) => f.file_name === 'passport.pdf');
    expect(Buffer.compare(pdf.content, PDF)).to.equal(0);
    expect(pdf.size).to.equal(PDF.length);
  });

  it('mails a summary to the data-protection address, without the documents', async () => {
    const before = smtp.mails.length;
    const answer = await send('ben', form({ ...VALID_FIELDS, fullName: 'Ben Example', requestType: 'Representative', representativeData: 'Counsel Ada Lovelace', rightsToExcercise: '["Correction","DataPortability"]' }, [{ name: 'id-card.pdf', content: PDF }]));
    expect(answer.status).to.equal(200);
    const [stored] = await requestsOf('ben');
    const mail = await smtp.next(DPO, before);
    // In the product's default language (French), whatever the requester's.
    expect(mail.subject).to.include(stored.id);
    expect(mail.text)
      .to.include('Ben Example')
      .and.include('ann.data@example.com')
      .and.include('ben@example.com')
      .and.include('Counsel Ada Lovelace')
      .and.include('24/11/2025')
      .and.include('Rectification, Portabilité des données')
      .and.include('Par un représentant')
      .and.include('id-card.pdf');
    expect(mail.attachments).to.have.length(0);
  });

  it('names every missing field with the spec’s messages, in the caller’s language, and stores nothing', async () => {
    const answer = await send('cleo', form({ representativeData: 'x' }));
    expect(answer.status).to.equal(400);
    expect(answer.body.code).to.equal('errors.validation');
    expect(messages(answer)).to.deep.equal([
      'Please select the request date!',
      'Please input the name of the interested!',
      'Please input the email!',
      'Please select the request type!',
      'Please check at least one right to exercise!',
      'Please add the required documents!',
    ]);
    const french = await send('cleo', form({ ...VALID_FIELDS, fullName: ' ', email: 'not-an-address' }), 'fr-FR');
    expect(messages(french)).to.deep.equal(['Veuillez saisir le nom de la personne concernée !', 'Veuillez saisir un e-mail valide !', 'Veuillez ajouter les documents requis !']);
    expect(await requestsOf('cleo')).to.have.length(0);
  });

  it('refuses a malformed date, an invalid e-mail, no right, an unknown right or request type and too long a text', async () => {
    const doc = [{ name: 'id.png', content: PNG }];
    const problems = async (fields: Record<string, string>) => (await send('cleo', form({ ...VALID_FIELDS, ...fields }, doc))).body.errors;
    expect(await problems({ requestDate: '31/02/2025' })).to.deep.equal([{ field: 'requestDate', code: 'rights.request_date_invalid', message: 'The request date must be a day written DD/MM/YYYY' }]);
    expect(await problems({ requestDate: '2025-11-24' })).to.deep.include({ field: 'requestDate', code: 'rights.request_date_invalid', message: 'The request date must be a day written DD/MM/YYYY' });
    expect(await problems({ email: 'ann@' })).to.deep.equal([{ field: 'email', code: 'rights.email_invalid', message: 'Please type a valid email!' }]);
    expect(await problems({ rightsToExcercise: '[]' })).to.deep.equal([{ field: 'rightsToExcercise', code: 'rights.right_required', message: 'Please check at least one right to exercise!' }]);
    const unknownRight = await problems({ rightsToExcercise: '["Access","Teleportation"]' });
    expect(unknownRight).to.deep.equal([
      { field: 'rightsToExcercise', code: 'rights.rights_invalid', message: 'The rights to exercise must be chosen among: Access, Information, Correction, TreatmentOpisition, Supression, DataPortability' },
    ]);
    expect((await problems({ rightsToExcercise: 'Access' }))![0]).to.include({ code: 'rights.rights_invalid' });
    expect((await problems({ requestType: 'Anonymous' }))![0]).to.include({ field: 'requestType', code: 'validation.invalid_value' });
    expect(await problems({ fullName: 'x'.repeat(201) })).to.deep.equal([{ field: 'fullName', code: 'validation.too_long', message: 'fullName must have at most 200 characters' }]);
    expect((await problems({ requestDetails: 'x'.repeat(4001) }))![0]).to.include({ field: 'requestDetails', code: 'validation.too_long' });
    expect(await requestsOf('cleo')).to.have.length(0);
  });

  it('refuses a file whose content is not what its extension says, and a type that is not accepted', async () => {
    const answer = await send(
      'dan',
      form(VALID_FIELDS, [
        { name: 'passport.pdf', content: EXE },
        { name: 'photo.png', content: HTML },
        { name: 'setup.doc', content: compoundFile(false) },
        { name: 'scan.jpg', content: PDF },
        { name: 'id.html', content: HTML },
        { name: 'fine.pdf', content: PDF },
      ]),
    );
    expect(answer.status).to.equal(400);
    expect(messages(answer)).to.deep.equal([
      'passport.pdf is not really a pdf file: its content is of another type',
      'photo.png is not really a png file: its content is of another type',
      'setup.doc is not really a doc file: its content is of another type',
      'scan.jpg is not really a jpg file: its content is of another type',
      'id.html: only pdf, doc, docx, png, jpg and jpeg files are allowed',
    ]);
    expect(await requestsOf('dan')).to.have.length(0);
  });

  it('refuses documents over 2 MB together, and cuts a larger upload short with a 413', async () => {
    // Within the Content-Length allowance: cut while reading, once the two together pass 2 MB.
    const halves = await send('dan', form(VALID_FIELDS, [{ name: 'a.png', content: pngOf(1_060_000) }, { name: 'b.png', content: pngOf(1_060_000) }]));
    expect(halves.status).to.equal(413);
    expect(halves.body).to.include({ code: 'rights.files_too_large', message: '2MB files size limit exceeded' });

    const over = await send('dan', form(VALID_FIELDS, [{ name: 'a.png', content: pngOf(2 * 1024 * 1024 + 1) }]), 'es');
    expect(over.status).to.equal(413);
    expect(over.body.message).to.equal('Se ha superado el límite de 2 MB para el total de los archivos');

    // Far over: refused by its Content-Length, before a byte of it is read.
    const far = await fetch(`${server.url}${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.dan}`, 'accept-language': 'en' },
      body: form(VALID_FIELDS, [{ name: 'a.png', content: pngOf(8 * 1024 * 1024) }]),
    });
    expect(far.status).to.equal(413);
    expect(far.headers.get('connection')).to.equal('close');

    const exactly = await send('dan', form(VALID_FIELDS, [{ name: 'a.png', content: pngOf(1024 * 1024) }, { name: 'b.png', content: pngOf(1024 * 1024) }]));
    expect(exactly.status, 'exactly 2 MB is allowed').to.equal(200);
    expect(await requestsOf('dan')).to.have.length(1);
  });

  it('refuses more than 10 documents, a document under another field and a body that is not a form', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `page-${i}.png`, content: PNG }));
    const tooMany = await send('eve', form(VALID_FIELDS, eleven));
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.message).to.equal('Add at most 10 documents');
    const otherField = await send('eve', form(VALID_FIELDS, [{ name: 'id.png', content: PNG }], 'attachment'));
    expect(otherField.status).to.equal(400);
    expect(otherField.body.code).to.equal('rights.unexpected_field');
    const json = await send('eve', JSON.stringify(VALID_FIELDS), 'en', { 'content-type': 'application/json' });
    expect(json.status).to.equal(415);
    const broken = await send('eve', '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\nann', 'en', { 'content-type': 'multipart/form-data; boundary=x' });
    expect(broken.status).to.equal(400);
    expect(broken.body.code).to.equal('rights.upload_invalid');
    const plain = await send('eve', form(VALID_FIELDS, [{ name: 'id.png', content: PNG }], 'files'));
    expect(plain.status, 'the field `files` is taken as well as `files[]`').to.equal(200);
  });

  it('answers 401 without a token or with a token issued to another application, and stores nothing', async () => {
    // A page of the product sends the anti-forgery pair; without it the call is refused even earlier (403).
    const page = new Browser(server.url);
    await page.get('/api/v1/config');
    const xsrf = page.cookie('XSRF-TOKEN')!;
    const anonymous = await fetch(`${server.url}${PATH}`, {
      method: 'POST',
      headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      body: form(VALID_FIELDS, [{ name: 'id.png', content: PNG }]),
    });
    expect(anonymous.status).to.equal(401);
    expect((await fetch(`${server.url}${PATH}`, { method: 'POST', body: form(VALID_FIELDS) })).status).to.equal(403);
    const crm = await tokenFor('fay@example.com', 'crm');
    const other = await fetch(`${server.url}${PATH}`, { method: 'POST', headers: { authorization: `Bearer ${crm}` }, body: form(VALID_FIELDS, [{ name: 'id.png', content: PNG }]) });
    expect(other.status).to.equal(401);
    const forged = await fetch(`${server.url}${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${randomBytes(32).toString('base64url')}` },
      body: form(VALID_FIELDS, [{ name: 'id.png', content: PNG }]),
    });
    expect(forged.status).to.equal(401);
    expect(await requestsOf('fay')).to.have.length(0);
  });

  it('accepts 10 requests an hour from one user, then answers 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await send('fay', form(VALID_FIELDS, [{ name: 'id.png', content: PNG }]))).status);
    expect(statuses).to.deep.equal([...Array<number>(10).fill(200), 429]);
    const refused = await send('fay', form(VALID_FIELDS, [{ name: 'id.png', content: PNG }]));
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 3600);
    expect(refused.body.message).to.match(/^Too many requests\. Try again in \d+ seconds\.$/);
    expect(await requestsOf('fay')).to.have.length(10);
    // Another user is not held back by fay's requests.
    expect((await send('eve', form(VALID_FIELDS, [{ name: 'id.png', content: PNG }]))).status).to.equal(200);
  });
});
