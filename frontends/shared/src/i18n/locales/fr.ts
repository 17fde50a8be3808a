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
    notFoundPage: {
      title: 'Page introuvable',
      body: "La page que vous recherchez n'existe pas ou a été supprimée.",
      action: "Retour à l'accueil",
    },
    roleOrigin: {
      own: 'en nom propre',
      group: 'via le groupe {{group}}',
      hierarchy: 'hérité de {{tenant}}',
      hierarchyViaGroup: 'hérité de {{tenant}} via le groupe {{group}}',
    },
    termsOnlyIn: 'Ces conditions n’existent qu’en {{languages}}.',
    table: {
      columns: 'Colonnes',
      columnsShown: 'Colonnes affichées',
    },
  },
  admin: {
    dashboard: {
      title: 'Administration',
      placeholder: "La console d'administration {{productName}} sera bientôt disponible ici.",
    },
  },
};
