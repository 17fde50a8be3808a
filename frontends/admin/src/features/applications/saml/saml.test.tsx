import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../../test-utils';
import { bodiesTo, dialogWith, list, PAGE_TEST_TIMEOUT, sentTo, type } from '../../directory/test-helpers';
import ApplicationDetailPage from '../ApplicationDetailPage';
import type { ApplicationDetail, SavedApplication } from '../applications-api';
import ApplicationsPage from '../ApplicationsPage';
import type { SamlApplication, SamlMetadata } from './saml-api';

const NAMESPACES = ['admin', 'directory', 'applications', 'applicationRoles'] as const;
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';

/** A SAML application as its page reads it. */
function samlDetail(overrides: Partial<ApplicationDetail> = {}): ApplicationDetail {
  return {
    id: 'wiki',
    name: 'wiki',
    displayName: 'Wiki',
    description: null,
    type: 'public',
    status: 'Running',
    enabled: true,
    prerelease: false,
    hideInUserList: false,
    privateUrl: 'https://wiki.example.com/',
    publicUrl: null,
    protocol: 'saml',
    modifiedOn: '2026-03-04T10:00:00.000Z',
    userIsOwner: true,
    system: false,
    redirectUris: [],
    postLogoutRedirectUris: [],
    icon: null,
    hasIconImage: false,
    hasSecret: false,
    requireDpop: false,
    deviceFlow: false,
    requirePar: false,
    requireSignedRequestObject: false,
    clientAuthentication: 'none',
    jwks: null,
    jwksUri: null,
    fapi2: false,
    tokenExchangeAudiences: [],
    owners: [],
    ...overrides,
  };
}

const IDP = { idpEntityId: 'https://id.example.com/saml', idpMetadataUrl: 'https://id.example.com/saml/metadata' };

const stored: SamlApplication = {
  applicationId: 'wiki',
  ...IDP,
  settings: {
    entityId: 'https://wiki.example.com/saml/metadata',
    assertionConsumerServices: [{ url: 'https://wiki.example.com/saml/acs', binding: POST }],
    singleLogoutUrl: null,
    nameIdFormat: 'email',
    attributes: [{ source: 'email', name: 'mail' }],
    certificate: CERTIFICATE,
    wantAuthnRequestsSigned: false,
    encryptAssertions: true,
    defaultRelayState: '/start',
  },
};

const metadata: SamlMetadata = {
  entityId: 'https://sp.example.com/shibboleth',
  assertionConsumerServices: [
    { url: 'https://sp.example.com/Shibboleth.sso/SAML2/POST', binding: POST },
    { url: 'https://sp.example.com/alt/acs', binding: POST },
  ],
  singleLogoutUrl: 'https://sp.example.com/Shibboleth.sso/SLO/Redirect',
  certificate: CERTIFICATE,
  wantAuthnRequestsSigned: true,
  nameIdFormat: 'persistent',
};

beforeEach(() => sessionStorage.clear());

describe('New application: SAML 2.0', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('offers OpenID Connect or SAML 2.0; a SAML one is created without redirect URIs, type or OpenID Connect settings', async () => {
    const created: SavedApplication = { ...samlDetail(), sharedSecret: null };
    const { fetchMock } = await renderPage(<ApplicationsPage />, {
      route: '/applications',
      pattern: '/applications',
      namespaces: [...NAMESPACES],
      api: { 'GET /api/v1/admin/applications': list([]), 'POST /api/v1/admin/applications': () => jsonResponse(created, 201) },
    });
    fireEvent.click(await screen.findByRole('button', { name: /New application/ }));
    const dialog = await dialogWith('A confidential application gets a shared secret');
    expect(within(dialog).getByRole('radio', { name: 'OpenID Connect' })).toBeChecked();

    fireEvent.click(within(dialog).getByRole('radio', { name: 'SAML 2.0' }));
    await waitFor(() => expect(within(dialog).queryByLabelText('Redirect URIs 1')).not.toBeInTheDocument());
    expect(within(dialog).queryByRole('radio', { name: 'Confidential' })).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/A confidential application gets a shared secret/)).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent('gets its SAML settings on its page once created');

    type(within(dialog).getByLabelText('Name (client id)'), 'wiki');
    type(within(dialog).getByLabelText('Display name'), 'Wiki');
    type(within(dialog).getByLabelText('Private URL'), 'https://wiki.example.com/');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByTestId('location')).toHaveTextContent('/applications/wiki');
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/applications')).toEqual([
      {
        id: null,
        name: 'wiki',
        protocol: 'saml',
        displayName: 'Wiki',
        description: null,
        type: 'public',
        privateUrl: 'https://wiki.example.com/',
        publicUrl: null,
        redirectUris: [],
        postLogoutRedirectUris: [],
        prerelease: false,
        hideInUserList: false,
        enabled: true,
        icon: null,
      },
    ]);
  });

  it('creates a SAML application without a private URL, which an OpenID Connect one must have', async () => {
    const created: SavedApplication = { ...samlDetail(), privateUrl: null, sharedSecret: null };
    const { fetchMock } = await renderPage(<ApplicationsPage />, {
      route: '/applications',
      pattern: '/applications',
      namespaces: [...NAMESPACES],
      api: { 'GET /api/v1/admin/applications': list([]), 'POST /api/v1/admin/applications': () => jsonResponse(created, 201) },
    });
    fireEvent.click(await screen.findByRole('button', { name: /New application/ }));
    const dialog = await dialogWith('A confidential application gets a shared secret');
    type(within(dialog).getByLabelText('Name (client id)'), 'wiki');
    type(within(dialog).getByLabelText('Display name'), 'Wiki');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please input the application private URL!')).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('radio', { name: 'SAML 2.0' }));
    expect(await within(dialog).findByText(/the portal opens it through the identity provider, not at this address/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/applications/wiki');
    const [body] = (await bodiesTo(fetchMock, 'POST /api/v1/admin/applications')) as Array<Record<string, unknown>>;
    expect(body).toMatchObject({ name: 'wiki', protocol: 'saml', privateUrl: null });
  });
});

describe('ApplicationDetailPage: the SAML section', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderSaml(saml: SamlApplication = stored, options: { roles?: string[]; api?: ApiRoutes } = {}) {
    return renderPage(<ApplicationDetailPage />, {
      route: '/applications/wiki',
      pattern: '/applications/:applicationId/:tab?',
      roles: options.roles,
      namespaces: [...NAMESPACES],
      api: {
        'GET /api/v1/admin/applications/wiki': samlDetail(),
        'GET /api/v1/admin/applications/wiki/saml': saml,
        'GET /api/v1/admin/app/wiki/roles': list([]),
        'GET /api/v1/admin/applications': list([]),
        ...options.api,
      },
    });
  }

  it('shows the settings, the identity provider’s metadata address, and no OpenID Connect setting', async () => {
    await renderSaml();

    expect(await screen.findByLabelText('Entity id')).toHaveValue('https://wiki.example.com/saml/metadata');
    expect(screen.getByLabelText('Assertion consumer service URL 1')).toHaveValue('https://wiki.example.com/saml/acs');
    expect(screen.getByRole('radio', { name: 'E-mail address' })).toBeChecked();
    expect(screen.getByLabelText('SAML name of attribute 1')).toHaveValue('mail');
    expect(screen.getByRole('checkbox', { name: "Encrypt assertions with the service provider's certificate (RSA)" })).toBeChecked();
    expect(screen.getByLabelText('Default RelayState')).toHaveValue('/start');
    expect(screen.getByText('https://id.example.com/saml/metadata')).toBeInTheDocument();
    expect(screen.queryByLabelText('Redirect URIs 1')).not.toBeInTheDocument();
    expect(screen.queryByText('Require DPoP (sender-constrained tokens)')).not.toBeInTheDocument();
    expect(screen.queryByText('Allow sign-in on devices (device code)')).not.toBeInTheDocument();
  });

  it('offers no client secret for a SAML application, even one a bootstrap file made confidential', async () => {
    await renderPage(<ApplicationDetailPage />, {
      route: '/applications/wiki',
      pattern: '/applications/:applicationId/:tab?',
      namespaces: [...NAMESPACES],
      api: {
        'GET /api/v1/admin/applications/wiki': { ...samlDetail(), type: 'confidential' },
        'GET /api/v1/admin/applications/wiki/saml': stored,
        'GET /api/v1/admin/app/wiki/roles': list([]),
        'GET /api/v1/admin/applications': list([]),
      },
    });
    expect(await screen.findByLabelText('Entity id')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /New secret/ })).not.toBeInTheDocument();
  });

  it('fills the form from metadata read at an address, then saves what it shows with a new attribute', async () => {
    const { fetchMock } = await renderSaml(stored, {
      api: { 'POST /api/v1/admin/applications/samlMetadata': metadata, 'PUT /api/v1/admin/applications/wiki/saml': stored },
    });
    type(await screen.findByLabelText('Metadata address'), 'https://sp.example.com/Shibboleth.sso/Metadata');
    fireEvent.click(screen.getByRole('button', { name: 'Read' }));

    expect(await screen.findByText('The form now holds what the metadata says: check it, then save.')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/applications/samlMetadata')).toEqual([{ url: 'https://sp.example.com/Shibboleth.sso/Metadata' }]);
    expect(screen.getByLabelText('Entity id')).toHaveValue('https://sp.example.com/shibboleth');
    expect(screen.getByLabelText('Assertion consumer service URL 2')).toHaveValue('https://sp.example.com/alt/acs');
    expect(screen.getByLabelText('Single logout URL')).toHaveValue('https://sp.example.com/Shibboleth.sso/SLO/Redirect');
    expect(screen.getByRole('radio', { name: /Persistent/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Requests must be signed' })).toBeChecked();
    // Nothing is saved until the user saves.
    expect(sentTo(fetchMock, 'PUT /api/v1/admin/applications/wiki/saml')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: /Add an attribute/ }));
    type(screen.getByLabelText('SAML name of attribute 2'), 'uid');
    fireEvent.click(screen.getAllByRole('button', { name: 'Save' }).at(-1)!);
    await waitFor(() => expect(sentTo(fetchMock, 'PUT /api/v1/admin/applications/wiki/saml')).toHaveLength(1));
    expect(await bodiesTo(fetchMock, 'PUT /api/v1/admin/applications/wiki/saml')).toEqual([
      {
        entityId: 'https://sp.example.com/shibboleth',
        assertionConsumerServices: [{ url: 'https://sp.example.com/Shibboleth.sso/SAML2/POST' }, { url: 'https://sp.example.com/alt/acs' }],
        singleLogoutUrl: 'https://sp.example.com/Shibboleth.sso/SLO/Redirect',
        nameIdFormat: 'persistent',
        attributes: [
          { source: 'email', name: 'mail' },
          { source: 'email', name: 'uid' },
        ],
        certificate: CERTIFICATE.trim(),
        wantAuthnRequestsSigned: true,
        // What the metadata does not say stays as it was.
        encryptAssertions: true,
        defaultRelayState: '/start',
      },
    ]);
  });

  it('reads an uploaded metadata file', async () => {
    const { fetchMock } = await renderSaml(stored, { api: { 'POST /api/v1/admin/applications/samlMetadata': metadata } });
    const input = await screen.findByLabelText('Upload a metadata file');
    const file = new File(['<md:EntityDescriptor/>'], 'sp.xml', { type: 'text/xml' });
    fireEvent.change(input, { target: { files: [file] } });

    await waitFor(() => expect(screen.getByLabelText('Entity id')).toHaveValue('https://sp.example.com/shibboleth'));
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/applications/samlMetadata')).toEqual([{ xml: '<md:EntityDescriptor/>' }]);
  });

  it('says why metadata is refused, and puts the server’s field errors under their fields', async () => {
    await renderSaml(stored, {
      api: {
        'POST /api/v1/admin/applications/samlMetadata': () =>
          jsonResponse({ code: 'samlApplications.metadata_dtd', message: 'Metadata with a document type declaration (DTD) or entities is not accepted', errors: [] }, 400),
        'PUT /api/v1/admin/applications/wiki/saml': () =>
          jsonResponse(
            {
              code: 'samlApplications.entity_id_in_use',
              message: 'The application CRM already has this entity id',
              errors: [{ field: 'entityId', code: 'samlApplications.entity_id_in_use', message: 'The application CRM already has this entity id' }],
            },
            409,
          ),
      },
    });
    type(await screen.findByLabelText('Metadata address'), 'https://sp.example.com/metadata');
    fireEvent.click(screen.getByRole('button', { name: 'Read' }));
    expect(await screen.findByText('Metadata with a document type declaration (DTD) or entities is not accepted')).toBeInTheDocument();

    fireEvent.click(screen.getAllByRole('button', { name: 'Save' }).at(-1)!);
    expect(await screen.findByText('The application CRM already has this entity id')).toBeInTheDocument();
  });

  it('checks the form before sending: entity id, addresses, a certificate for signed requests', async () => {
    const { fetchMock } = await renderSaml({ ...stored, settings: null });
    expect(await screen.findByText(/This SAML application has no settings yet/)).toBeInTheDocument();
    type(screen.getByLabelText('Entity id'), 'wiki');
    type(screen.getByLabelText('Assertion consumer service URL 1'), 'http://wiki.example.com/acs');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Requests must be signed' }));
    fireEvent.click(screen.getByRole('checkbox', { name: "Encrypt assertions with the service provider's certificate (RSA)" }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Save' }).at(-1)!);

    expect(await screen.findByText('Enter an absolute address starting with https:// (http:// only on localhost), or a URN (urn:…)')).toBeInTheDocument();
    expect(screen.getByText('Enter an absolute address starting with https:// (http:// only on localhost), without credentials or #')).toBeInTheDocument();
    expect(screen.getByText("Signed requests are checked with the service provider's certificate: paste it")).toBeInTheDocument();
    expect(screen.getByText('Only a service provider holding the key of an RSA certificate can read them: paste it')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'PUT /api/v1/admin/applications/wiki/saml')).toHaveLength(0);
  });

  it('is read-only for a caller who may not change applications', async () => {
    await renderSaml(stored, { roles: ['TenantAdministrator'] });
    expect(await screen.findByLabelText('Entity id')).toBeDisabled();
    expect(screen.queryByLabelText('Metadata address')).not.toBeInTheDocument();
  });
});
