import type { ScimPhrases } from './en';

export const fr: ScimPhrases = {
  tab: {
    intro:
      'Avec le provisionnement SCIM, un annuaire comme Microsoft Entra ID ou un système RH crée, modifie, désactive et supprime les utilisateurs et les groupes d’une zone, par l’URL de base SCIM 2.0 ci-dessous et un jeton émis ici.',
    reach: 'Chaque jeton n’atteint que les utilisateurs et les groupes de sa propre zone. Les utilisateurs et les groupes qui détiennent des rôles d’administration sont hors de sa portée.',
    baseUrl: 'URL de base SCIM',
    copyUrl: 'Copier l’URL de base SCIM',
    tokens: 'Jetons SCIM',
    newToken: 'Nouveau jeton',
  },
  tokens: {
    name: 'Nom',
    area: 'Zone',
    hint: 'Jeton',
    createdBy: 'Créé par',
    createdAt: 'Créé le',
    expiresAt: 'Expire le',
    lastUsedAt: 'Dernière utilisation',
    never: 'Jamais',
    expired: 'Expiré',
    revoke: 'Révoquer',
    revokeToken: 'Révoquer le jeton {{name}}',
    revokeConfirm: 'Révoquer le jeton {{name}} ?',
    revokeWarning: 'Le provisionnement par ce jeton s’arrête aussitôt : la zone {{area}} n’est plus tenue à jour par lui. Cette action est irréversible.',
    revoked: 'Le jeton {{name}} a été révoqué',
    issued: 'Le jeton {{name}} a été émis',
  },
  form: {
    title: 'Nouveau jeton SCIM',
    name: 'Nom',
    nameHelp: 'Distingue les jetons, par exemple d’après le système qui l’utilise.',
    nameRequired: 'Saisissez un nom pour le jeton',
    tooLong: 'Au plus {{max}} caractères',
    area: 'Zone',
    areaHelp: 'La zone dont le jeton provisionne les utilisateurs et les groupes.',
    areaRequired: 'Choisissez une zone',
    expiresAt: 'Expiration',
    expiresAtPlaceholder: 'Dans un an',
    expiryHelp: 'Le jeton est refusé à partir de ce jour. Vide : dans un an ; au plus deux ans plus tard.',
    expiryInPast: 'Choisissez un jour postérieur à aujourd’hui',
  },
  issued: {
    title: 'Jeton SCIM {{name}}',
    warning:
      'Voici le jeton que le client SCIM (Microsoft Entra ID, un système RH) envoie comme jeton porteur, avec l’URL de base SCIM. Conservez-le soigneusement : une fois cette fenêtre fermée, vous ne le verrez plus.',
    value: 'Jeton SCIM',
    baseUrl: 'URL de base SCIM',
    area: 'Zone',
    expiresAt: 'Expire le',
  },
  copy: {
    copy: 'Copier',
    tokenCopied: 'Jeton copié dans le presse-papiers !',
    urlCopied: 'URL de base SCIM copiée dans le presse-papiers !',
    failed: 'La copie a échoué : sélectionnez le texte et copiez-le vous-même.',
  },
};
