import type { Phrases } from './en';

export const es: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Cargando…',
    notSet: '(No establecido)',
    errors: {
      notFound: 'No encontrado',
      accessDenied: 'Acceso denegado',
      unknown: 'Error desconocido',
    },
  },
  admin: {
    dashboard: {
      title: 'Administración',
      placeholder: 'La consola de administración de {{productName}} estará disponible aquí pronto.',
    },
  },
};
