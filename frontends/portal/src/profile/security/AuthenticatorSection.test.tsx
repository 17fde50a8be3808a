import { formatDateTime } from '@gatehouse/frontend-shared';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { groupedKey } from './AuthenticatorSection';
import { dialog, renderSecurity, section, securityServer, TOTP_CODE, TOTP_ENROLMENT } from './security-test-server';

// The QR code's drawing says nothing a test can read: the value it encodes is what matters.
vi.mock('antd/es/qr-code', () => ({
  default: ({ value }: { value: string }) => <div data-testid="qr-code" data-value={value} />,
}));

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

describe('My security: authenticator app', () => {
  it('sets one up: the QR code of the otpauth URI, the key by groups of four, then a first code', async () => {
    const server = securityServer();
    await renderSecurity();
    const totp = await section('Authenticator app');
    expect(within(totp).getByText('No authenticator app is set up.')).toBeInTheDocument();

    fireEvent.click(within(totp).getByRole('button', { name: 'Set up an authenticator app' }));

    const setup = await dialog('Set up your authenticator app');
    expect(server.sent('POST /api/v1/profile/totp')).toEqual([{}]);
    const qr = within(setup).getByRole('img', { name: 'QR code to scan with your authenticator app' });
    expect(within(qr).getByTestId('qr-code')).toHaveAttribute('data-value', TOTP_ENROLMENT.otpauthUri);
    expect(within(setup).getByText('JBSW Y3DP EHPK 3PXP JBSW')).toBeInTheDocument();

    const code = within(setup).getByLabelText('Code shown by the app');
    type(code, '000000');
    fireEvent.click(within(setup).getByRole('button', { name: 'Confirm' }));
    const refused = await within(setup).findByRole('alert');
    expect(refused).toHaveTextContent('The code could not be confirmed.');
    expect(refused).toHaveTextContent('The code is not valid.');

    type(code, `${TOTP_CODE.slice(0, 3)} ${TOTP_CODE.slice(3)}`);
    fireEvent.click(within(setup).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(setup).not.toBeInTheDocument());
    expect(server.sent('POST /api/v1/profile/totp/confirm')).toEqual([{ code: '000000' }, { code: TOTP_CODE }]);
    expect(await within(totp).findByText(/^You set up an authenticator app on /)).toBeInTheDocument();
    expect(within(totp).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
  });

  it('checks the code has six digits before sending it', async () => {
    const server = securityServer();
    await renderSecurity();
    const totp = await section('Authenticator app');
    fireEvent.click(within(totp).getByRole('button', { name: 'Set up an authenticator app' }));
    const setup = await dialog('Set up your authenticator app');

    fireEvent.click(within(setup).getByRole('button', { name: 'Confirm' }));
    expect(await within(setup).findByText('Enter the code')).toBeInTheDocument();
    type(within(setup).getByLabelText('Code shown by the app'), '12a3');
    fireEvent.click(within(setup).getByRole('button', { name: 'Confirm' }));
    expect(await within(setup).findByText('The code has 6 digits')).toBeInTheDocument();
    expect(within(setup).getByLabelText('Code shown by the app')).toHaveValue('123');
    expect(server.sent('POST /api/v1/profile/totp/confirm')).toEqual([]);
  });

  it('removes it with a code it shows now, as the server asks', async () => {
    const enrolledAt = '2026-01-10T12:00:00.000Z';
    const server = securityServer({ totp: { enrolled: true, enrolledAt } });
    await renderSecurity();
    const totp = await section('Authenticator app');
    expect(within(totp).getByText(`You set up an authenticator app on ${formatDateTime(enrolledAt, { notSet: '' })}.`)).toBeInTheDocument();

    fireEvent.click(within(totp).getByRole('button', { name: 'Remove' }));
    const removal = await dialog('Remove the authenticator app?');
    type(within(removal).getByLabelText('Current code'), TOTP_CODE);
    fireEvent.click(within(removal).getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(removal).not.toBeInTheDocument());
    expect(server.sent('POST /api/v1/profile/totp/disable')).toEqual([{ code: TOTP_CODE }]);
    expect(await within(totp).findByText('No authenticator app is set up.')).toBeInTheDocument();
  });

  it('groups a manual key by four', () => {
    expect(groupedKey('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupedKey('ABCDEF')).toBe('ABCD EF');
    expect(groupedKey('')).toBe('');
  });
});
