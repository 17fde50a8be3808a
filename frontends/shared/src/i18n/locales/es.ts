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
    roleOrigin: {
      own: 'a nombre propio',
      group: 'a través del grupo {{group}}',
      hierarchy: 'heredado de {{tenant}}',
      hierarchyViaGroup: 'heredado de {{tenant}} a través del grupo {{group}}',
    },
    termsOnlyIn: 'Estas condiciones solo existen en {{languages}}.',
    table: {
      columns: 'Columnas',
      columnsShown: 'Columnas visibles',
    },
  },
  admin: {
    dashboard: {
      title: 'Administración',
      placeholder: 'La consola de administración de {{productName}} estará disponible aquí pronto.',
    },
  },
};
