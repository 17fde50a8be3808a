import { factorChangeWords, labelled } from './labels.js';
import type { FactorChangePhrases, MailPhrases } from './types.js';

const REQUEST_TYPES = { Direct: "Diretta (l'interessato stesso)", Representative: 'Tramite un rappresentante' };
const RIGHTS = { Access: 'Accesso', Information: 'Informazione', Correction: 'Rettifica', TreatmentOpisition: 'Opposizione al trattamento', Supression: 'Cancellazione', DataPortability: 'Portabilità dei dati' };
const FACTOR_KINDS = { passkeys: 'le sue passkey', totp: "l'app di autenticazione", recoveryCodes: 'i suoi codici di recupero' };
const passkey = (name: string | undefined) => (name ? `La passkey «${name}»` : 'Una passkey');
const FACTOR_CHANGES: FactorChangePhrases = {
  passkey_added: {
    subject: 'Al suo account è stata aggiunta una passkey',
    intro: (p) => [`${passkey(p.passkeyName)} è stata aggiunta al suo account il ${p.date}. Da ora consente di accedere.`],
  },
  passkey_removed: {
    subject: 'Una passkey è stata rimossa dal suo account',
    intro: (p) => [`${passkey(p.passkeyName)} è stata rimossa dal suo account il ${p.date}. Non consente più di accedere.`],
  },
  totp_added: {
    subject: "Per il suo account è stata configurata un'app di autenticazione",
    intro: (p) => [`Il ${p.date} è stata configurata un'app di autenticazione come secondo fattore del suo account.`],
  },
  totp_removed: {
    subject: "L'app di autenticazione è stata rimossa dal suo account",
    intro: (p) => [`L'app di autenticazione è stata rimossa dal suo account il ${p.date}: i suoi codici non funzionano più.`],
  },
  recovery_codes_generated: {
    subject: 'Per il suo account sono stati creati nuovi codici di recupero',
    intro: (p) => [`Il ${p.date} sono stati creati nuovi codici di recupero per il suo account. I codici precedenti non funzionano più.`],
  },
  recovery_code_used: {
    subject: 'Un codice di recupero è stato usato per accedere al suo account',
    intro: (p) => [`Il ${p.date} uno dei suoi codici di recupero è stato usato per accedere al suo account. Non può essere usato di nuovo.`],
    outro: [
      'Se è stato lei, crei nuovi codici di recupero in La mia sicurezza quando ne restano pochi.',
      "In caso contrario, qualcuno conosce la sua password e uno dei suoi codici: cambi subito la password, crei nuovi codici di recupero e contatti l'amministratore.",
    ],
  },
  factors_reset: {
    subject: 'I fattori di accesso del suo account sono stati reimpostati',
    intro: (p) => [
      p.kinds
        ? `Il ${p.date} un amministratore ha rimosso dal suo account: ${labelled(p.kinds, FACTOR_KINDS)}.`
        : `Il ${p.date} un amministratore ha reimpostato i fattori di accesso del suo account.`,
      'Può configurarne di nuovi in La mia sicurezza; potrebbe esserle chiesto al prossimo accesso.',
    ],
    outro: ["Se non l'ha chiesto lei, contatti subito l'amministratore."],
  },
};
const NOT_YOU = [
  'Se la modifica è stata fatta da lei, non deve fare altro.',
  "In caso contrario, cambi subito la password, rimuova in La mia sicurezza ciò che non riconosce e contatti l'amministratore.",
];

export const it: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Gentile ${name},` : 'Gentile utente,'),
    linkFallback: 'Se il pulsante non funziona, copi questo link nel suo browser:',
    automated: 'Questo messaggio è stato inviato automaticamente; la preghiamo di non rispondere.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'Il suo codice di accesso',
      intro: () => ["Utilizzi questo codice per completare l'accesso:"],
      outro: (p) => [
        `Scade tra ${p.minutes}.`,
        'Se non ha richiesto questo codice, ignori questo messaggio. Non condivida mai questo codice con nessuno.',
      ],
    },
    'password-reset': {
      subject: () => 'Reimposti la sua password',
      intro: (p) => [
        'Abbiamo ricevuto una richiesta di reimpostazione della password del suo account.',
        `Scelga una nuova password tramite il link qui sotto. Il link scade tra ${p.minutes}.`,
      ],
      action: 'Reimposta la password',
      outro: () => ['Se non ha richiesto la reimpostazione della password, ignori questo messaggio: la sua password resta invariata.'],
    },
    'password-reset-locked': {
      subject: () => 'Non è possibile reimpostare la sua password: il suo account è bloccato',
      intro: () => [
        'Abbiamo ricevuto una richiesta di reimpostazione della password del suo account.',
        'Il suo account è bloccato, quindi la sua password non può essere reimpostata.',
      ],
      outro: () => [
        "Contatti il suo amministratore per far sbloccare l'account.",
        'Se non ha richiesto la reimpostazione della password, può ignorare questo messaggio.',
      ],
    },
    'password-reset-pending': {
      subject: () => 'Non è ancora possibile reimpostare la sua password',
      intro: () => [
        'Abbiamo ricevuto una richiesta di reimpostazione della password del suo account.',
        "Il suo account è in attesa di approvazione: potrà scegliere una password quando un amministratore l'avrà approvato.",
      ],
      outro: () => [
        "Se è in attesa dell'accesso, contatti il suo amministratore.",
        'Se non ha richiesto la reimpostazione della password, può ignorare questo messaggio.',
      ],
    },
    'password-reset-professional': {
      subject: () => 'Acceda con il suo account professionale',
      intro: () => [
        'Abbiamo ricevuto una richiesta di reimpostazione della password del suo account.',
        "Il suo account accede con l'account professionale (Office 365): qui non c'è alcuna password da reimpostare.",
      ],
      outro: () => [
        'Nella pagina di accesso, scelga il suo account professionale. Se non riesce ad accedere con esso, contatti il suo amministratore.',
        'Se non ha richiesto la reimpostazione della password, può ignorare questo messaggio.',
      ],
    },
    invitation: {
      subject: (p) => `Invito a unirsi a ${p.productName}`,
      intro: (p) => [
        `È stato invitato/a a unirsi a ${p.productName}.`,
        "Accetti l'invito per scegliere la sua password e attivare il suo account.",
      ],
      action: "Accetta l'invito",
      outro: () => ['Se non si aspettava questo invito, può ignorare questo messaggio.'],
    },
    'password-changed': {
      subject: () => 'La sua password è stata modificata',
      intro: (p) => [`La password del suo account è stata modificata il ${p.date}.`],
      outro: () => [
        'Se la modifica è stata fatta da lei, non deve fare altro.',
        "In caso contrario, reimposti subito la password e contatti l'amministratore.",
      ],
    },
    'email-changed': {
      subject: () => "L'indirizzo e-mail del suo account è stato modificato",
      intro: (p) => [`L'indirizzo e-mail del suo account è stato modificato il ${p.date}. I messaggi relativi all'account non arriveranno più a questo indirizzo.`],
      outro: () => [
        'Se la modifica è stata richiesta da lei, non deve fare altro.',
        "In caso contrario, contatti subito l'amministratore.",
      ],
    },
    'rights-request': {
      subject: (p) => `Richiesta di esercizio dei diritti sulla protezione dei dati ${p.reference}`,
      intro: (p) => [
        `Una richiesta di esercizio dei diritti sulla protezione dei dati è stata inviata dal portale il ${p.receivedAt}.`,
        `Riferimento: ${p.reference}`,
        `Nome dell'interessato: ${p.fullName}`,
        `E-mail: ${p.email}`,
        `Inviata dall'account: ${p.account}`,
        `Tipo di richiesta: ${labelled(p.requestType, REQUEST_TYPES)}`,
        `Rappresentante: ${p.representativeData || '—'}`,
        `Data della richiesta: ${p.requestDate}`,
        `Diritti da esercitare: ${labelled(p.rights, RIGHTS)}`,
        `Dettagli: ${p.requestDetails || '—'}`,
        `Documenti di identità: ${p.documents}`,
      ],
      outro: () => ["I documenti di identità non sono allegati a questo messaggio: gli amministratori li scaricano con la richiesta dall'amministrazione delle identità."],
    },
    'operation-request': {
      subject: (p) => `Approvazione necessaria: ruoli per ${p.target} in ${p.tenant}`,
      intro: (p) => [`${p.requester} chiede ruoli per ${p.target} in ${p.tenant}.`, 'Serve la tua approvazione prima che vengano applicati.'],
      outro: () => ['Apri I miei clienti, Richieste di accesso nel portale per approvare o rifiutare la richiesta.'],
    },
    'factor-changed': {
      subject: (p) => factorChangeWords(FACTOR_CHANGES, p.change).subject,
      intro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).intro(p),
      outro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).outro ?? NOT_YOU,
    },
  },
};
