import type { Phrases } from './en';

export const es: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Cargando…',
  },
  portal: {
    home: {
      welcome:
        'Bienvenido a tu portal de {{productName}}. Desde aquí podrás gestionar tu cuenta y tus métodos de inicio de sesión.',
      environment: 'Entorno: {{environment}}',
      loadError: 'No se pudo cargar la configuración. Inténtalo de nuevo más tarde.',
    },
    account: {
      title: 'Inicio de sesión',
      placeholder: 'Las pantallas de inicio de sesión estarán disponibles pronto.',
    },
    profile: {
      title: 'Perfil',
      placeholder: 'Tu perfil estará disponible aquí pronto.',
    },
  },
  admin: {
    dashboard: {
      title: 'Administración',
      placeholder: 'La consola de administración de {{productName}} estará disponible aquí pronto.',
    },
  },
};
