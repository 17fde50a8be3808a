import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Application } from '../entities/applications.js';
import { ApplicationSamlSettings } from '../entities/saml.js';
import { createTestContext } from '../testing/index.js';
import { BootstrapError, applyBootstrap, readBootstrapFile } from './apply.js';

const write = (content: string): string => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gatehouse-bootstrap-')), 'bootstrap.yaml');
  writeFileSync(file, content);
  return file;
};

const samlApp = (saml: string, extra = '') => `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: wiki
    name: wiki
    displayName: Company wiki
    protocol: saml${extra}
    saml:
${saml
  .trim()
  .split('\n')
  .map((line) => `      ${line.trim()}`)
  .join('\n')}
`;

async function refusal(content: string): Promise<string> {
  try {
    await readBootstrapFile(write(content), { publicUrl: 'https://id.example.com' });
  } catch (error) {
    expect(error).to.be.instanceOf(BootstrapError);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
}

describe('bootstrap file: SAML applications', () => {
  it('stores a SAML application’s settings, and changes them when the file does', async () => {
    const { dataSource, secrets } = await createTestContext();
    const first = await readBootstrapFile(
      write(
        samlApp(`
          entityId: urn:example:wiki
          assertionConsumerServices: [{ url: 'https://wiki.example.com/acs' }, { url: 'http://127.0.0.1:8080/acs' }]
          singleLogoutUrl: https://wiki.example.com/slo
          nameIdFormat: persistent
          attributes: [{ source: email, name: mail }, { source: roles, name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.7' }]
        `),
      ),
      { publicUrl: 'https://id.example.com' },
    );
    await applyBootstrap(dataSource, first, { secrets, admin: { userName: 'root@example.com' } });
    expect((await dataSource.getRepository(Application).findOneByOrFail({ id: 'wiki' })).protocol).to.equal('saml');
    const stored = await dataSource.getRepository(ApplicationSamlSettings).findOneByOrFail({ applicationId: 'wiki' });
    // No client secret of its own (the admin API makes SAML applications public too).
    const { protocol, clientType, clientSecretEncrypted } = await dataSource.getRepository(Application).findOneByOrFail({ id: 'wiki' });
    expect({ protocol, clientType, clientSecretEncrypted }).to.deep.equal({ protocol: 'saml', clientType: 'public', clientSecretEncrypted: null });
    expect(stored).to.deep.include({
      entityId: 'urn:example:wiki',
      singleLogoutUrl: 'https://wiki.example.com/slo',
      nameIdFormat: 'persistent',
      certificate: null,
      wantAuthnRequestsSigned: false,
    });
    const post = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
    expect(stored.assertionConsumerServices).to.deep.equal([
      { url: 'https://wiki.example.com/acs', binding: post },
      { url: 'http://127.0.0.1:8080/acs', binding: post },
    ]);
    expect(stored.attributeMapping).to.deep.equal([
      { source: 'email', name: 'mail' },
      { source: 'roles', name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.7' },
    ]);

    const second = await readBootstrapFile(write(samlApp(`entityId: https://wiki.example.com/saml\nassertionConsumerServices: [{ url: 'https://wiki.example.com/acs' }]`)), { publicUrl: 'https://id.example.com' });
    await applyBootstrap(dataSource, second, { secrets, admin: { userName: 'root@example.com' } });
    const changed = await dataSource.getRepository(ApplicationSamlSettings).findOneByOrFail({ applicationId: 'wiki' });
    expect(changed).to.deep.include({ entityId: 'https://wiki.example.com/saml', singleLogoutUrl: null, nameIdFormat: 'email' });
    expect(changed.assertionConsumerServices).to.have.length(1);
  });

  it('stores a SAML application declared before its settings: SAML, public, no settings yet', async () => {
    const { dataSource, secrets } = await createTestContext();
    const document = await readBootstrapFile(
      write(`
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: payroll, name: payroll, displayName: Payroll, protocol: saml, roles: [{ name: Clerk }] }
`),
      { publicUrl: 'https://id.example.com' },
    );
    await applyBootstrap(dataSource, document, { secrets, admin: { userName: 'root@example.com' } });
    const { protocol, clientType, clientSecretEncrypted } = await dataSource.getRepository(Application).findOneByOrFail({ id: 'payroll' });
    expect({ protocol, clientType, clientSecretEncrypted }).to.deep.equal({ protocol: 'saml', clientType: 'public', clientSecretEncrypted: null });
    expect(await dataSource.getRepository(ApplicationSamlSettings).findOneBy({ applicationId: 'payroll' })).to.equal(null);
  });

  it('takes the service provider’s certificate, needed when its requests must be signed', async () => {
    const { dataSource, secrets } = await createTestContext();
    const document = await readBootstrapFile(
      write(`
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: wiki
    name: wiki
    displayName: Company wiki
    protocol: saml
    saml:
      entityId: urn:example:wiki
      assertionConsumerServices: [{ url: 'https://wiki.example.com/acs' }]
      wantAuthnRequestsSigned: true
      certificate: |
        -----BEGIN CERTIFICATE-----
        MIIDFzCCAf+gAwIBAgIUVMMQWTaFhvqyVF7MBHZ5xx0u+IQwDQYJKoZIhvcNAQEL
        BQAwGzEZMBcGA1UEAwwQd2lraS5leGFtcGxlLmNvbTAeFw0yNjExMzAxNTU2NDRa
        Fw0zNjExMjcxNTU2NDRaMBsxGTAXBgNVBAMMEHdpa2kuZXhhbXBsZS5jb20wggEi
        MA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQCVDRZY4Kc9PCAlvvcLAyH6Gl/K
        dH8J5++ubfRbh68D7iVW7nv2b3/NK7FERja4Q56DUkScuz74Z606fo4J3YKC0zuV
        8y+3H7DIqWSBqoGH+aohRq6Vpvs+3eG0WrWp5rj143E7KLVp7X1JDDBtYfd3Q332
        8KzxSG4o3f0HUDvjw/GKuQ9eWaw03ME9JXEkkRA1COXap+4YbYbU+8JwAVHkhCtT
        rFHFKRrxidHqrjVhxP2PedSjdOo4l9eZlF6/IXkDujZ6cUsLUk9jrru/czRkdU3u
        nW9d9XzZX+EqOCxkNK/6i0m+9XvhjbinlaCEy/qmgtW/ME8ZSE+KTFE+klQhAgMB
        AAGjUzBRMB0GA1UdDgQWBBSXEMhO7LkFcgmeIqbWmZt5OytK7DAfBgNVHSMEGDAW
        gBSXEMhO7LkFcgmeIqbWmZt5OytK7DAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3
        DQEBCwUAA4IBAQCDoMagc5NHVgcWze3jdXZUyJkwq5hXjF7JoQOFmSwnFudyVpbz
        K7XYhZk6xgM3SkW+trunMK8vrmxVMSWojnivLhl7X4pbpPtw09U2QBV2bBeo/RRk
        FP72KzxYZPF/icWPNgiiEgWsShkHxgNrA2EanZQEGk52ohaTtle4oNwQQyh5/gb4
        q3CXbQm07kROcTjv3/8TViyanN6McZ9iG/znD20Hhn6F5KY4UqYUaEinzsh2kw63
        8QA5KzO8m9YTj/4i0FWczfRrb1espxD8oOGKf5zME0q1gi2lrdeaNKNSqzKHMfLA
        1dsNdphnHifDCeMJjXFf/aDbHBLEE+lnmsXE
        -----END CERTIFICATE-----
`),
      { publicUrl: 'https://id.example.com' },
    );
    await applyBootstrap(dataSource, document, { secrets, admin: { userName: 'root@example.com' } });
    const stored = await dataSource.getRepository(ApplicationSamlSettings).findOneByOrFail({ applicationId: 'wiki' });
    expect(stored.wantAuthnRequestsSigned).to.equal(true);
    expect(stored.encryptAssertions, 'not asked for').to.equal(false);
    expect(new X509Certificate(stored.certificate!).subject).to.equal('CN=wiki.example.com');
    const message = await refusal(samlApp(`entityId: urn:example:wiki\nassertionConsumerServices: [{ url: 'https://wiki.example.com/acs' }]\ncertificate: not a certificate`));
    expect(message).to.include('expected an X.509 certificate in PEM');
  });

  it('refuses entity ids and addresses that are not absolute https (http on loopback only), and SAML settings on an OpenID Connect application', async () => {
    expect(await refusal(samlApp(`entityId: wiki\nassertionConsumerServices: [{ url: 'https://wiki.example.com/acs' }]`))).to.include('saml.entityId');
    expect(await refusal(samlApp(`entityId: urn:example:wiki\nassertionConsumerServices: [{ url: 'http://wiki.example.com/acs' }]`))).to.include('assertionConsumerServices');
    expect(await refusal(samlApp(`entityId: urn:example:wiki\nassertionConsumerServices: [{ url: 'https://wiki.example.com/acs#x' }]`))).to.include('assertionConsumerServices');
    expect(await refusal(samlApp(`entityId: urn:example:wiki\nassertionConsumerServices: []`))).to.include('needs an assertion consumer service');
    expect(await refusal(samlApp(`entityId: urn:example:wiki\nassertionConsumerServices: [{ url: 'https://wiki.example.com/acs' }]\nwantAuthnRequestsSigned: true`))).to.include(
      'signed requests are checked with the certificate',
    );
    expect(await refusal(samlApp(`entityId: urn:example:wiki\nassertionConsumerServices: [{ url: 'https://wiki.example.com/acs' }]\nencryptAssertions: true`))).to.include(
      'assertions are encrypted for the key of the certificate',
    );
    expect(await refusal(`applications: [{ id: wiki, name: wiki, displayName: Wiki, saml: { entityId: 'urn:example:wiki', assertionConsumerServices: [{ url: 'https://wiki.example.com/acs' }] } }]`)).to.include(
      'saml settings describe a SAML application only',
    );
  });
});
