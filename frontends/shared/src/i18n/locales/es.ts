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
    notFoundPage: {
      title: 'Página no encontrada',
      body: 'La página que busca no existe o ha sido eliminada.',
      action: 'Volver al inicio',
    },
  },
  admin: {
    dashboard: {
      title: 'Administración',
      placeholder: 'La consola de administración de {{productName}} estará disponible aquí pronto.',
    },
  },
};
