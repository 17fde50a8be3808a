import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '../domain/constants.js';

/** The parameters each mail template needs. */
export interface MailParams {
  'sign-in-code': { name: string; code: string; minutes: number };
  'password-reset': { name: string; link: string; minutes: number };
  invitation: { name: string; link: string; productName: string };
  /** A Date is written out in the reader's language, in UTC; a string is shown as given. */
  'password-changed': { name: string; date: Date | string };
  /** Sent to the previous address when an account's e-mail address is changed. */
  'email-changed': { name: string; date: Date | string };
}

export type MailTemplate = keyof MailParams;

export const MAIL_TEMPLATES = ['sign-in-code', 'password-reset', 'invitation', 'password-changed', 'email-changed'] as const satisfies readonly MailTemplate[];

/** A mail ready to send: the same content as plain text and as HTML. */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** The language the mail was written in (English when the requested one is not supported). */
  language: Language;
}

/**
 * Parameters as the phrases see them: every value already written for the reader's language
 * (minutes as "15 minutos", dates spelled out), so translators only place them in sentences.
 */
type Shown<P> = { [K in keyof P]: string };

interface TemplatePhrases<P> {
  subject: (p: Shown<P>) => string;
  /** Paragraphs before the code or the button. */
  intro: (p: Shown<P>) => string[];
  /** Paragraphs after it. */
  outro: (p: Shown<P>) => string[];
}

// A template with a link gets a button, so it needs that button's label.
type Phrases<P> = TemplatePhrases<P> & (P extends { link: string } ? { action: string } : unknown);

/**
 * The shape every language fills in. Parameters come from MailParams, so a phrase cannot use a
 * parameter its template does not have; a missing language, template or phrase fails to compile.
 */
export interface MailPhrases {
  common: {
    greeting: (name: string) => string;
    linkFallback: string;
    automated: string;
  };
  templates: { [T in MailTemplate]: Phrases<MailParams[T]> };
}

const en: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    linkFallback: 'If the button does not work, copy this link into your browser:',
    automated: 'This message was sent automatically; please do not reply.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'Your sign-in code',
      intro: () => ['Use this code to finish signing in:'],
      outro: (p) => [
        `It expires in ${p.minutes}.`,
        'If you did not ask for this code, ignore this message. Never share this code with anyone.',
      ],
    },
    'password-reset': {
      subject: () => 'Reset your password',
      intro: (p) => [
        'We received a request to reset the password of your account.',
        `Choose a new password by following the link below. The link expires in ${p.minutes}.`,
      ],
      action: 'Reset my password',
      outro: () => ['If you did not ask for a password reset, ignore this message: your password stays unchanged.'],
    },
    invitation: {
      subject: (p) => `You are invited to ${p.productName}`,
      intro: (p) => [
        `You have been invited to join ${p.productName}.`,
        'Accept the invitation to choose your password and activate your account.',
      ],
      action: 'Accept the invitation',
      outro: () => ['If you were not expecting this invitation, you can ignore this message.'],
    },
    'password-changed': {
      subject: () => 'Your password was changed',
      intro: (p) => [`The password of your account was changed on ${p.date}.`],
      outro: () => [
        'If you made this change, there is nothing more to do.',
        'If you did not, reset your password at once and contact your administrator.',
      ],
    },
    'email-changed': {
      subject: () => 'The e-mail address of your account was changed',
      intro: (p) => [`The e-mail address of your account was changed on ${p.date}. Messages about the account no longer come to this address.`],
      outro: () => [
        'If you asked for this change, there is nothing more to do.',
        'If you did not, contact your administrator at once.',
      ],
    },
  },
};

const fr: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    linkFallback: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    automated: 'Ce message a été envoyé automatiquement ; merci de ne pas y répondre.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'Votre code de connexion',
      intro: () => ['Utilisez ce code pour terminer votre connexion :'],
      outro: (p) => [
        `Il expire dans ${p.minutes}.`,
        "Si vous n'avez pas demandé ce code, ignorez ce message. Ne communiquez jamais ce code à personne.",
      ],
    },
    'password-reset': {
      subject: () => 'Réinitialisez votre mot de passe',
      intro: (p) => [
        'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte.',
        `Choisissez un nouveau mot de passe en suivant le lien ci-dessous. Le lien expire dans ${p.minutes}.`,
      ],
      action: 'Réinitialiser mon mot de passe',
      outro: () => [
        "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.",
      ],
    },
    invitation: {
      subject: (p) => `Invitation à rejoindre ${p.productName}`,
      intro: (p) => [
        `Vous êtes invité(e) à rejoindre ${p.productName}.`,
        "Acceptez l'invitation pour choisir votre mot de passe et activer votre compte.",
      ],
      action: "Accepter l'invitation",
      outro: () => ["Si vous n'attendiez pas cette invitation, vous pouvez ignorer ce message."],
    },
    'password-changed': {
      subject: () => 'Votre mot de passe a été modifié',
      intro: (p) => [`Le mot de passe de votre compte a été modifié le ${p.date}.`],
      outro: () => [
        "Si vous êtes à l'origine de ce changement, vous n'avez rien d'autre à faire.",
        'Sinon, réinitialisez votre mot de passe immédiatement et contactez votre administrateur.',
      ],
    },
    'email-changed': {
      subject: () => "L'adresse e-mail de votre compte a été modifiée",
      intro: (p) => [`L'adresse e-mail de votre compte a été modifiée le ${p.date}. Les messages concernant le compte ne seront plus envoyés à cette adresse.`],
      outro: () => [
        "Si vous avez demandé ce changement, vous n'avez rien d'autre à faire.",
        'Sinon, contactez immédiatement votre administrateur.',
      ],
    },
  },
};

const es: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
    linkFallback: 'Si el botón no funciona, copie este enlace en su navegador:',
    automated: 'Este mensaje se ha enviado automáticamente; por favor, no responda.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'Su código de inicio de sesión',
      intro: () => ['Utilice este código para terminar de iniciar sesión:'],
      outro: (p) => [
        `Caduca en ${p.minutes}.`,
        'Si no ha solicitado este código, ignore este mensaje. No comparta nunca este código con nadie.',
      ],
    },
    'password-reset': {
      subject: () => 'Restablezca su contraseña',
      intro: (p) => [
        'Hemos recibido una solicitud para restablecer la contraseña de su cuenta.',
        `Elija una nueva contraseña siguiendo el enlace de abajo. El enlace caduca en ${p.minutes}.`,
      ],
      action: 'Restablecer mi contraseña',
      outro: () => ['Si no ha solicitado restablecer su contraseña, ignore este mensaje: su contraseña no cambiará.'],
    },
    invitation: {
      subject: (p) => `Invitación para unirse a ${p.productName}`,
      intro: (p) => [
        `Le han invitado a unirse a ${p.productName}.`,
        'Acepte la invitación para elegir su contraseña y activar su cuenta.',
      ],
      action: 'Aceptar la invitación',
      outro: () => ['Si no esperaba esta invitación, puede ignorar este mensaje.'],
    },
    'password-changed': {
      subject: () => 'Se ha cambiado su contraseña',
      intro: (p) => [`La contraseña de su cuenta se cambió el ${p.date}.`],
      outro: () => [
        'Si ha sido usted, no tiene que hacer nada más.',
        'Si no, restablezca su contraseña de inmediato y póngase en contacto con su administrador.',
      ],
    },
    'email-changed': {
      subject: () => 'Se ha cambiado la dirección de correo electrónico de su cuenta',
      intro: (p) => [`La dirección de correo electrónico de su cuenta se cambió el ${p.date}. Los mensajes sobre la cuenta ya no llegarán a esta dirección.`],
      outro: () => [
        'Si ha solicitado este cambio, no tiene que hacer nada más.',
        'Si no, póngase en contacto con su administrador de inmediato.',
      ],
    },
  },
};

const ptPT: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Olá ${name},` : 'Olá,'),
    linkFallback: 'Se o botão não funcionar, copie esta ligação para o seu navegador:',
    automated: 'Esta mensagem foi enviada automaticamente; por favor, não responda.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'O seu código de início de sessão',
      intro: () => ['Utilize este código para concluir o início de sessão:'],
      outro: (p) => [
        `Expira dentro de ${p.minutes}.`,
        'Se não pediu este código, ignore esta mensagem. Nunca partilhe este código com ninguém.',
      ],
    },
    'password-reset': {
      subject: () => 'Reponha a sua palavra-passe',
      intro: (p) => [
        'Recebemos um pedido para repor a palavra-passe da sua conta.',
        `Escolha uma nova palavra-passe através da ligação abaixo. A ligação expira dentro de ${p.minutes}.`,
      ],
      action: 'Repor a minha palavra-passe',
      outro: () => ['Se não pediu a reposição da palavra-passe, ignore esta mensagem: a sua palavra-passe mantém-se inalterada.'],
    },
    invitation: {
      subject: (p) => `Convite para aceder a ${p.productName}`,
      intro: (p) => [
        `Foi convidado(a) para aceder a ${p.productName}.`,
        'Aceite o convite para definir a sua palavra-passe e ativar a sua conta.',
      ],
      action: 'Aceitar o convite',
      outro: () => ['Se não estava à espera deste convite, pode ignorar esta mensagem.'],
    },
    'password-changed': {
      subject: () => 'A sua palavra-passe foi alterada',
      intro: (p) => [`A palavra-passe da sua conta foi alterada a ${p.date}.`],
      outro: () => [
        'Se foi o próprio a fazer esta alteração, não tem de fazer mais nada.',
        'Caso contrário, reponha imediatamente a sua palavra-passe e contacte o seu administrador.',
      ],
    },
    'email-changed': {
      subject: () => 'O endereço de e-mail da sua conta foi alterado',
      intro: (p) => [`O endereço de e-mail da sua conta foi alterado a ${p.date}. As mensagens sobre a conta deixam de ser enviadas para este endereço.`],
      outro: () => [
        'Se foi o próprio a pedir esta alteração, não tem de fazer mais nada.',
        'Caso contrário, contacte imediatamente o seu administrador.',
      ],
    },
  },
};

const ptBR: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Olá, ${name},` : 'Olá,'),
    linkFallback: 'Se o botão não funcionar, copie este link no seu navegador:',
    automated: 'Esta mensagem foi enviada automaticamente; por favor, não responda.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'Seu código de acesso',
      intro: () => ['Use este código para concluir o login:'],
      outro: (p) => [
        `Ele expira em ${p.minutes}.`,
        'Se você não solicitou este código, ignore esta mensagem. Nunca compartilhe este código com ninguém.',
      ],
    },
    'password-reset': {
      subject: () => 'Redefina sua senha',
      intro: (p) => [
        'Recebemos uma solicitação para redefinir a senha da sua conta.',
        `Escolha uma nova senha pelo link abaixo. O link expira em ${p.minutes}.`,
      ],
      action: 'Redefinir minha senha',
      outro: () => ['Se você não solicitou a redefinição de senha, ignore esta mensagem: sua senha continua a mesma.'],
    },
    invitation: {
      subject: (p) => `Convite para acessar ${p.productName}`,
      intro: (p) => [
        `Você foi convidado(a) para acessar ${p.productName}.`,
        'Aceite o convite para definir sua senha e ativar sua conta.',
      ],
      action: 'Aceitar o convite',
      outro: () => ['Se você não esperava este convite, pode ignorar esta mensagem.'],
    },
    'password-changed': {
      subject: () => 'Sua senha foi alterada',
      intro: (p) => [`A senha da sua conta foi alterada em ${p.date}.`],
      outro: () => [
        'Se foi você quem fez essa alteração, não é preciso fazer mais nada.',
        'Caso contrário, redefina sua senha imediatamente e entre em contato com o administrador.',
      ],
    },
    'email-changed': {
      subject: () => 'O endereço de e-mail da sua conta foi alterado',
      intro: (p) => [`O endereço de e-mail da sua conta foi alterado em ${p.date}. As mensagens sobre a conta não serão mais enviadas para este endereço.`],
      outro: () => [
        'Se foi você quem pediu essa alteração, não é preciso fazer mais nada.',
        'Caso contrário, entre em contato com o administrador imediatamente.',
      ],
    },
  },
};

const it: MailPhrases = {
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
  },
};

const de: MailPhrases = {
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
  },
};

const CATALOGUES: Record<Language, MailPhrases> = { fr, en, es, 'pt-PT': ptPT, 'pt-BR': ptBR, it, de };

/**
 * Writes a mail in the requested language, or in English when that language is not supported.
 * Every parameter is HTML-escaped in the HTML body; a link must be http(s), since it becomes an
 * `href`.
 */
export function renderMail<T extends MailTemplate>(template: T, language: string, params: MailParams[T]): RenderedMail {
  const lang: Language = (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : FALLBACK_LANGUAGE;
  const catalogue = CATALOGUES[lang];
  // Indexing by a generic key loses the link between template and parameters; MailParams[T] ties them.
  const phrases = catalogue.templates[template] as unknown as Phrases<Record<string, unknown>> & { action?: string };
  const raw = params as Record<string, unknown>;
  const shown = show(lang, raw);
  const link = typeof raw.link === 'string' ? checkedLink(raw.link) : undefined;
  const code = typeof raw.code === 'string' ? raw.code : undefined;

  const mail: MailParts = {
    subject: phrases.subject(shown),
    greeting: catalogue.common.greeting(shown.name?.trim() ?? ''),
    intro: phrases.intro(shown),
    code,
    link: link && phrases.action ? { href: link, label: phrases.action, fallback: catalogue.common.linkFallback } : undefined,
    outro: phrases.outro(shown),
    automated: catalogue.common.automated,
  };
  return { subject: mail.subject, html: toHtml(lang, mail), text: toText(mail), language: lang };
}

interface MailParts {
  subject: string;
  greeting: string;
  intro: string[];
  code?: string;
  link?: { href: string; label: string; fallback: string };
  outro: string[];
  automated: string;
}

function show(lang: Language, params: Record<string, unknown>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value instanceof Date) shown[key] = formatDate(lang, value);
    else if (key === 'minutes' && typeof value === 'number') shown[key] = formatMinutes(lang, value);
    else shown[key] = String(value ?? '');
  }
  return shown;
}

// Intl spells units and plurals out in every language ("1 minute", "15 Minuten").
function formatMinutes(lang: Language, minutes: number): string {
  return new Intl.NumberFormat(lang, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes);
}

// The reader's time zone is unknown here, so the time is given in UTC and says so; a 24-hour clock
// keeps "14:05 UTC" unambiguous in every language.
function formatDate(lang: Language, date: Date): string {
  return new Intl.DateTimeFormat(lang, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(date);
}

// A `javascript:` or `data:` link would run in the reader's mail client.
function checkedLink(link: string): string {
  let protocol: string;
  try {
    protocol = new URL(link).protocol;
  } catch {
    throw new Error('A mail link must be an absolute URL');
  }
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error('A mail link must be an http(s) URL');
  return link;
}

/** Text safe inside HTML content and double- or single-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const P = 'margin:0 0 16px;';
const MUTED = 'color:#57606a;';
const ACCENT = '#0b5cad';

// Mail clients drop <style> blocks and block remote content, so the layout is inline-styled and
// self-contained.
function toHtml(lang: Language, mail: MailParts): string {
  const para = (text: string, style = P) => `<p style="${style}">${escapeHtml(text)}</p>`;
  const parts = [para(mail.greeting), ...mail.intro.map((t) => para(t))];
  if (mail.code !== undefined) {
    parts.push(
      `<p style="margin:24px 0;font-family:'Courier New',Courier,monospace;font-size:28px;font-weight:bold;letter-spacing:6px;">${escapeHtml(mail.code)}</p>`,
    );
  }
  if (mail.link) {
    const href = escapeHtml(mail.link.href);
    parts.push(
      `<p style="margin:24px 0;"><a href="${href}" style="display:inline-block;padding:12px 24px;background:${ACCENT};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;">${escapeHtml(mail.link.label)}</a></p>`,
      `<p style="${P}font-size:13px;${MUTED}">${escapeHtml(mail.link.fallback)}<br><a href="${href}" style="color:${ACCENT};word-break:break-all;">${href}</a></p>`,
    );
  }
  parts.push(...mail.outro.map((t) => para(t)), para(mail.automated, `margin:24px 0 0;font-size:12px;${MUTED}`));
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(mail.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2328;">',
    '<div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px;font-size:16px;line-height:1.5;">',
    ...parts,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

function toText(mail: MailParts): string {
  const blocks = [mail.greeting, ...mail.intro];
  if (mail.code !== undefined) blocks.push(`    ${mail.code}`);
  if (mail.link) blocks.push(`${mail.link.label}:\n${mail.link.href}`);
  // "-- " marks a signature, which mail clients dim or fold away.
  blocks.push(...mail.outro, `-- \n${mail.automated}`);
  return `${blocks.join('\n\n')}\n`;
}
