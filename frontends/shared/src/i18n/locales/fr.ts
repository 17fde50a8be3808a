import type { Phrases } from './en';

export const fr: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Chargement…',
    notSet: '(Non défini)',
    errors: {
      notFound: 'Introuvable',
      accessDenied: 'Accès refusé',
      unknown: 'Erreur inconnue',
    },
  },
  admin: {
    dashboard: {
      title: 'Administration',
      placeholder: "La console d'administration {{productName}} sera bientôt disponible ici.",
    },
  },
};
