import { factorChangeWords, labelled } from './labels.js';
import type { FactorChangePhrases, MailPhrases } from './types.js';

const REQUEST_TYPES = { Direct: 'Direkt (die betroffene Person selbst)', Representative: 'Über einen Vertreter' };
const RIGHTS = { Access: 'Auskunft', Information: 'Information', Correction: 'Berichtigung', TreatmentOpisition: 'Widerspruch gegen die Verarbeitung', Supression: 'Löschung', DataPortability: 'Datenübertragbarkeit' };
const FACTOR_KINDS = { passkeys: 'Ihre Passkeys', totp: 'die Authenticator-App', recoveryCodes: 'Ihre Wiederherstellungscodes' };
const passkey = (name: string | undefined) => (name ? `Der Passkey „${name}“` : 'Ein Passkey');
const FACTOR_CHANGES: FactorChangePhrases = {
  passkey_added: {
    subject: 'Ihrem Konto wurde ein Passkey hinzugefügt',
    intro: (p) => [`${passkey(p.passkeyName)} wurde Ihrem Konto am ${p.date} hinzugefügt. Mit ihm kann man sich jetzt anmelden.`],
  },
  passkey_removed: {
    subject: 'Ein Passkey wurde aus Ihrem Konto entfernt',
    intro: (p) => [`${passkey(p.passkeyName)} wurde am ${p.date} aus Ihrem Konto entfernt. Mit ihm kann man sich nicht mehr anmelden.`],
  },
  totp_added: {
    subject: 'Für Ihr Konto wurde eine Authenticator-App eingerichtet',
    intro: (p) => [`Am ${p.date} wurde eine Authenticator-App als zweiter Faktor für Ihr Konto eingerichtet.`],
  },
  totp_removed: {
    subject: 'Die Authenticator-App wurde aus Ihrem Konto entfernt',
    intro: (p) => [`Die Authenticator-App wurde am ${p.date} aus Ihrem Konto entfernt: Ihre Codes gelten nicht mehr.`],
  },
  recovery_codes_generated: {
    subject: 'Für Ihr Konto wurden neue Wiederherstellungscodes erstellt',
    intro: (p) => [`Am ${p.date} wurden neue Wiederherstellungscodes für Ihr Konto erstellt. Die bisherigen Codes gelten nicht mehr.`],
  },
  recovery_code_used: {
    subject: 'Mit einem Wiederherstellungscode wurde sich bei Ihrem Konto angemeldet',
    intro: (p) => [`Am ${p.date} wurde einer Ihrer Wiederherstellungscodes zur Anmeldung bei Ihrem Konto verwendet. Er kann nicht noch einmal verwendet werden.`],
    outro: [
      'Wenn Sie das waren, erstellen Sie unter „Meine Sicherheit“ neue Wiederherstellungscodes, sobald nur noch wenige übrig sind.',
      'Andernfalls kennt jemand Ihr Passwort und einen Ihrer Codes: Ändern Sie sofort Ihr Passwort, erstellen Sie neue Wiederherstellungscodes und wenden Sie sich an Ihren Administrator.',
    ],
  },
  factors_reset: {
    subject: 'Die Anmeldefaktoren Ihres Kontos wurden zurückgesetzt',
    intro: (p) => [
      p.kinds
        ? `Ein Administrator hat am ${p.date} aus Ihrem Konto entfernt: ${labelled(p.kinds, FACTOR_KINDS)}.`
        : `Ein Administrator hat am ${p.date} die Anmeldefaktoren Ihres Kontos zurückgesetzt.`,
      'Unter „Meine Sicherheit“ können Sie neue einrichten; bei Ihrer nächsten Anmeldung werden Sie womöglich darum gebeten.',
    ],
    outro: ['Wenn Sie das nicht veranlasst haben, wenden Sie sich sofort an Ihren Administrator.'],
  },
};
const NOT_YOU = [
  'Wenn Sie das selbst waren, müssen Sie nichts weiter tun.',
  'Andernfalls ändern Sie sofort Ihr Passwort, entfernen Sie unter „Meine Sicherheit“ alles, was Sie nicht kennen, und wenden Sie sich an Ihren Administrator.',
];

export const de: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Hallo ${name},` : 'Hallo,'),
    linkFallback: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:',
    automated: 'Diese Nachricht wurde automatisch versendet; bitte antworten Sie nicht darauf.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'Ihr Anmeldecode',
      intro: () => ['Verwenden Sie diesen Code, um die Anmeldung abzuschließen:'],
      outro: (p) => [
        `Er läuft in ${p.minutes} ab.`,
        'Falls Sie diesen Code nicht angefordert haben, ignorieren Sie diese Nachricht. Geben Sie diesen Code niemals weiter.',
      ],
    },
    'password-reset': {
      subject: () => 'Setzen Sie Ihr Passwort zurück',
      intro: (p) => [
        'Wir haben eine Anfrage zum Zurücksetzen des Passworts Ihres Kontos erhalten.',
        `Wählen Sie über den folgenden Link ein neues Passwort. Der Link läuft in ${p.minutes} ab.`,
      ],
      action: 'Passwort zurücksetzen',
      outro: () => ['Falls Sie das Zurücksetzen nicht angefordert haben, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.'],
    },
    'password-reset-locked': {
      subject: () => 'Ihr Passwort kann nicht zurückgesetzt werden: Ihr Konto ist gesperrt',
      intro: () => [
        'Wir haben eine Anfrage zum Zurücksetzen des Passworts Ihres Kontos erhalten.',
        'Ihr Konto ist gesperrt, daher kann sein Passwort nicht zurückgesetzt werden.',
      ],
      outro: () => [
        'Wenden Sie sich an Ihren Administrator, um Ihr Konto entsperren zu lassen.',
        'Falls Sie das Zurücksetzen nicht angefordert haben, können Sie diese Nachricht ignorieren.',
      ],
    },
    'password-reset-pending': {
      subject: () => 'Ihr Passwort kann noch nicht zurückgesetzt werden',
      intro: () => [
        'Wir haben eine Anfrage zum Zurücksetzen des Passworts Ihres Kontos erhalten.',
        'Ihr Konto wartet auf Genehmigung: Sie können ein Passwort wählen, sobald ein Administrator es genehmigt hat.',
      ],
      outro: () => [
        'Falls Sie auf Ihren Zugang warten, wenden Sie sich an Ihren Administrator.',
        'Falls Sie das Zurücksetzen nicht angefordert haben, können Sie diese Nachricht ignorieren.',
      ],
    },
    'password-reset-professional': {
      subject: () => 'Melden Sie sich mit Ihrem geschäftlichen Konto an',
      intro: () => [
        'Wir haben eine Anfrage zum Zurücksetzen des Passworts Ihres Kontos erhalten.',
        'Ihr Konto meldet sich mit Ihrem geschäftlichen Konto (Office 365) an: Hier gibt es kein Passwort, das zurückgesetzt werden könnte.',
      ],
      outro: () => [
        'Wählen Sie auf der Anmeldeseite Ihr geschäftliches Konto. Falls die Anmeldung damit nicht gelingt, wenden Sie sich an Ihren Administrator.',
        'Falls Sie das Zurücksetzen nicht angefordert haben, können Sie diese Nachricht ignorieren.',
      ],
    },
    invitation: {
      subject: (p) => `Einladung zu ${p.productName}`,
      intro: (p) => [
        `Sie wurden zu ${p.productName} eingeladen.`,
        'Nehmen Sie die Einladung an, um Ihr Passwort festzulegen und Ihr Konto zu aktivieren.',
      ],
      action: 'Einladung annehmen',
      outro: () => ['Falls Sie diese Einladung nicht erwartet haben, können Sie diese Nachricht ignorieren.'],
    },
    'password-changed': {
      subject: () => 'Ihr Passwort wurde geändert',
      intro: (p) => [`Das Passwort Ihres Kontos wurde am ${p.date} geändert.`],
      outro: () => [
        'Wenn Sie das selbst waren, müssen Sie nichts weiter tun.',
        'Andernfalls setzen Sie Ihr Passwort sofort zurück und wenden Sie sich an Ihren Administrator.',
      ],
    },
    'email-changed': {
      subject: () => 'Die E-Mail-Adresse Ihres Kontos wurde geändert',
      intro: (p) => [`Die E-Mail-Adresse Ihres Kontos wurde am ${p.date} geändert. Nachrichten zu Ihrem Konto werden nicht mehr an diese Adresse gesendet.`],
      outro: () => [
        'Wenn Sie diese Änderung veranlasst haben, müssen Sie nichts weiter tun.',
        'Andernfalls wenden Sie sich sofort an Ihren Administrator.',
      ],
    },
    'rights-request': {
      subject: (p) => `Antrag auf Ausübung von Datenschutzrechten ${p.reference}`,
      intro: (p) => [
        `Über das Portal wurde am ${p.receivedAt} ein Antrag auf Ausübung von Datenschutzrechten gesendet.`,
        `Referenz: ${p.reference}`,
        `Name der betroffenen Person: ${p.fullName}`,
        `E-Mail: ${p.email}`,
        `Gesendet vom Konto: ${p.account}`,
        `Art des Antrags: ${labelled(p.requestType, REQUEST_TYPES)}`,
        `Vertreter: ${p.representativeData || '—'}`,
        `Datum des Antrags: ${p.requestDate}`,
        `Auszuübende Rechte: ${labelled(p.rights, RIGHTS)}`,
        `Details: ${p.requestDetails || '—'}`,
        `Ausweisdokumente: ${p.documents}`,
      ],
      outro: () => ['Die Ausweisdokumente sind dieser Nachricht nicht beigefügt: Administratoren laden sie mit dem Antrag in der Identitätsverwaltung herunter.'],
    },
    'operation-request': {
      subject: (p) => `Genehmigung erforderlich: Rollen für ${p.target} in ${p.tenant}`,
      intro: (p) => [`${p.requester} fragt Rollen für ${p.target} in ${p.tenant} an.`, 'Ihre Genehmigung ist erforderlich, bevor sie angewendet werden.'],
      outro: () => ['Öffnen Sie Meine Kunden, Zugriffsanfragen im Portal, um die Anfrage zu genehmigen oder abzulehnen.'],
    },
    'factor-changed': {
      subject: (p) => factorChangeWords(FACTOR_CHANGES, p.change).subject,
      intro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).intro(p),
      outro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).outro ?? NOT_YOU,
    },
  },
};
