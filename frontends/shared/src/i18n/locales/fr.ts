import type { Phrases } from './en';

// French typography puts a non-breaking space before a colon.
export const fr: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Chargement…',
  },
  portal: {
    home: {
      welcome:
        'Bienvenue sur votre portail {{productName}}. Vous pourrez y gérer votre compte et vos méthodes de connexion.',
      environment: 'Environnement\u00a0: {{environment}}',
      loadError: 'Impossible de charger la configuration. Veuillez réessayer plus tard.',
    },
    account: {
      title: 'Connexion',
      placeholder: 'Les écrans de connexion seront bientôt disponibles.',
    },
    profile: {
      title: 'Profil',
      placeholder: 'Votre profil sera bientôt disponible ici.',
    },
  },
  admin: {
    dashboard: {
      title: 'Administration',
      placeholder: "La console d'administration {{productName}} sera bientôt disponible ici.",
    },
  },
};
