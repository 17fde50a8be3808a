import { factorChangeWords, labelled } from './labels.js';
import type { FactorChangePhrases, MailPhrases } from './types.js';

const REQUEST_TYPES = { Direct: 'Directa (el propio interesado)', Representative: 'A través de un representante' };
const RIGHTS = { Access: 'Acceso', Information: 'Información', Correction: 'Rectificación', TreatmentOpisition: 'Oposición al tratamiento', Supression: 'Supresión', DataPortability: 'Portabilidad de los datos' };
const FACTOR_KINDS = { passkeys: 'sus llaves de acceso', totp: 'la aplicación de autenticación', recoveryCodes: 'sus códigos de recuperación' };
const passkey = (name: string | undefined) => (name ? `La llave de acceso «${name}»` : 'Una llave de acceso');
const FACTOR_CHANGES: FactorChangePhrases = {
  passkey_added: {
    subject: 'Se ha añadido una llave de acceso a su cuenta',
    intro: (p) => [`${passkey(p.passkeyName)} se añadió a su cuenta el ${p.date}. Desde ahora permite iniciar sesión.`],
  },
  passkey_removed: {
    subject: 'Se ha eliminado una llave de acceso de su cuenta',
    intro: (p) => [`${passkey(p.passkeyName)} se eliminó de su cuenta el ${p.date}. Ya no permite iniciar sesión.`],
  },
  totp_added: {
    subject: 'Se ha configurado una aplicación de autenticación para su cuenta',
    intro: (p) => [`El ${p.date} se configuró una aplicación de autenticación como segundo factor de su cuenta.`],
  },
  totp_removed: {
    subject: 'Se ha quitado la aplicación de autenticación de su cuenta',
    intro: (p) => [`La aplicación de autenticación se quitó de su cuenta el ${p.date}: sus códigos ya no funcionan.`],
  },
  recovery_codes_generated: {
    subject: 'Se han generado nuevos códigos de recuperación para su cuenta',
    intro: (p) => [`El ${p.date} se generaron nuevos códigos de recuperación para su cuenta. Los códigos anteriores ya no funcionan.`],
  },
  recovery_code_used: {
    subject: 'Se ha usado un código de recuperación para entrar en su cuenta',
    intro: (p) => [`El ${p.date} se usó uno de sus códigos de recuperación para iniciar sesión en su cuenta. No se puede volver a usar.`],
    outro: [
      'Si ha sido usted, genere nuevos códigos de recuperación en Mi seguridad cuando le queden pocos.',
      'Si no, alguien conoce su contraseña y uno de sus códigos: cambie su contraseña de inmediato, genere nuevos códigos de recuperación y póngase en contacto con su administrador.',
    ],
  },
  factors_reset: {
    subject: 'Se han restablecido los factores de inicio de sesión de su cuenta',
    intro: (p) => [
      p.kinds
        ? `Un administrador eliminó de su cuenta el ${p.date}: ${labelled(p.kinds, FACTOR_KINDS)}.`
        : `Un administrador restableció los factores de inicio de sesión de su cuenta el ${p.date}.`,
      'Puede configurar otros nuevos en Mi seguridad; es posible que se le pida en su próximo inicio de sesión.',
    ],
    outro: ['Si no lo ha solicitado, póngase en contacto con su administrador de inmediato.'],
  },
};
const NOT_YOU = [
  'Si ha sido usted, no tiene que hacer nada más.',
  'Si no, cambie su contraseña de inmediato, elimine en Mi seguridad lo que no reconozca y póngase en contacto con su administrador.',
];

export const es: MailPhrases = {
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
    'password-reset-locked': {
      subject: () => 'No se puede restablecer su contraseña: su cuenta está bloqueada',
      intro: () => [
        'Hemos recibido una solicitud para restablecer la contraseña de su cuenta.',
        'Su cuenta está bloqueada, por lo que su contraseña no se puede restablecer.',
      ],
      outro: () => [
        'Póngase en contacto con su administrador para que desbloquee su cuenta.',
        'Si no ha solicitado restablecer su contraseña, puede ignorar este mensaje.',
      ],
    },
    'password-reset-pending': {
      subject: () => 'Todavía no se puede restablecer su contraseña',
      intro: () => [
        'Hemos recibido una solicitud para restablecer la contraseña de su cuenta.',
        'Su cuenta está pendiente de aprobación: podrá elegir una contraseña cuando un administrador la haya aprobado.',
      ],
      outro: () => [
        'Si está esperando acceso, póngase en contacto con su administrador.',
        'Si no ha solicitado restablecer su contraseña, puede ignorar este mensaje.',
      ],
    },
    'password-reset-professional': {
      subject: () => 'Inicie sesión con su cuenta profesional',
      intro: () => [
        'Hemos recibido una solicitud para restablecer la contraseña de su cuenta.',
        'Su cuenta inicia sesión con su cuenta profesional (Office 365): aquí no tiene ninguna contraseña que restablecer.',
      ],
      outro: () => [
        'En la página de inicio de sesión, elija su cuenta profesional. Si no puede iniciar sesión con ella, póngase en contacto con su administrador.',
        'Si no ha solicitado restablecer su contraseña, puede ignorar este mensaje.',
      ],
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
    'rights-request': {
      subject: (p) => `Solicitud de ejercicio de derechos de protección de datos ${p.reference}`,
      intro: (p) => [
        `Se ha enviado una solicitud de ejercicio de derechos de protección de datos desde el portal el ${p.receivedAt}.`,
        `Referencia: ${p.reference}`,
        `Nombre del interesado: ${p.fullName}`,
        `Correo electrónico: ${p.email}`,
        `Enviada por la cuenta: ${p.account}`,
        `Tipo de solicitud: ${labelled(p.requestType, REQUEST_TYPES)}`,
        `Representante: ${p.representativeData || '—'}`,
        `Fecha de la solicitud: ${p.requestDate}`,
        `Derechos que ejercer: ${labelled(p.rights, RIGHTS)}`,
        `Detalles: ${p.requestDetails || '—'}`,
        `Documentos de identificación: ${p.documents}`,
      ],
      outro: () => ['Los documentos de identificación no se adjuntan a este mensaje: los administradores los descargan con la solicitud desde la administración de identidades.'],
    },
    'operation-request': {
      subject: (p) => `Aprobación necesaria: roles para ${p.target} en ${p.tenant}`,
      intro: (p) => [`${p.requester} solicita roles para ${p.target} en ${p.tenant}.`, 'Se necesita su aprobación antes de aplicarlos.'],
      outro: () => ['Abra Mis clientes, Solicitudes de acceso en el portal para aprobar o rechazar la solicitud.'],
    },
    'factor-changed': {
      subject: (p) => factorChangeWords(FACTOR_CHANGES, p.change).subject,
      intro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).intro(p),
      outro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).outro ?? NOT_YOU,
    },
  },
};
