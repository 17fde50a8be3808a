import type { ScimPhrases } from './en';

export const es: ScimPhrases = {
  tab: {
    intro:
      'Con el aprovisionamiento SCIM, un directorio como Microsoft Entra ID o un sistema de RR. HH. crea, actualiza, desactiva y elimina los usuarios y grupos de un área, mediante la URL base de SCIM 2.0 que figura a continuación y un token emitido aquí.',
    reach: 'Cada token solo alcanza a los usuarios y grupos de su propia área. Los usuarios y grupos que tienen roles de administración quedan fuera de su alcance.',
    baseUrl: 'URL base de SCIM',
    copyUrl: 'Copiar la URL base de SCIM',
    tokens: 'Tokens SCIM',
    newToken: 'Nuevo token',
  },
  tokens: {
    name: 'Nombre',
    area: 'Área',
    hint: 'Token',
    createdBy: 'Creado por',
    createdAt: 'Creado',
    expiresAt: 'Caduca',
    lastUsedAt: 'Último uso',
    never: 'Nunca',
    expired: 'Caducado',
    revoke: 'Revocar',
    revokeToken: 'Revocar el token {{name}}',
    revokeConfirm: '¿Revocar el token {{name}}?',
    revokeWarning: 'El aprovisionamiento con él se detiene de inmediato: el área {{area}} deja de sincronizarse mediante este token. Esta acción no se puede deshacer.',
    revoked: 'Se ha revocado el token {{name}}',
    issued: 'Se ha emitido el token {{name}}',
  },
  form: {
    title: 'Nuevo token SCIM',
    name: 'Nombre',
    nameHelp: 'Distingue los tokens, por ejemplo, por el sistema que lo usa.',
    nameRequired: 'Introduzca un nombre para el token',
    tooLong: 'Como máximo {{max}} caracteres',
    area: 'Área',
    areaHelp: 'El área cuyos usuarios y grupos aprovisiona el token.',
    areaRequired: 'Elija un área',
    expiresAt: 'Caducidad',
    expiresAtPlaceholder: 'Dentro de un año',
    expiryHelp: 'El token se rechaza a partir de este día. Vacío: dentro de un año; como máximo dos años después.',
    expiryInPast: 'Elija un día posterior a hoy',
  },
  issued: {
    title: 'Token SCIM {{name}}',
    warning:
      'Este es el token que el cliente SCIM (Microsoft Entra ID, un sistema de RR. HH.) envía como token de portador, junto con la URL base de SCIM. Guárdelo con cuidado: cuando cierre este cuadro de diálogo, no lo volverá a ver.',
    value: 'Token SCIM',
    baseUrl: 'URL base de SCIM',
    area: 'Área',
    expiresAt: 'Caduca',
  },
  copy: {
    copy: 'Copiar',
    tokenCopied: '¡Token copiado al portapapeles!',
    urlCopied: '¡URL base de SCIM copiada al portapapeles!',
    failed: 'No se ha podido copiar: selecciónelo y cópielo usted mismo.',
  },
};
