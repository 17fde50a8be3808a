import type { Phrases } from './en';

export const ptPT: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'A carregar…',
  },
  portal: {
    home: {
      welcome:
        'Bem-vindo ao seu portal {{productName}}. Aqui poderá gerir a sua conta e os seus métodos de início de sessão.',
      environment: 'Ambiente: {{environment}}',
      loadError: 'Não foi possível carregar a configuração. Tente novamente mais tarde.',
    },
    account: {
      title: 'Início de sessão',
      placeholder: 'Os ecrãs de início de sessão estarão disponíveis em breve.',
    },
    profile: {
      title: 'Perfil',
      placeholder: 'O seu perfil estará disponível aqui em breve.',
    },
  },
  admin: {
    dashboard: {
      title: 'Administração',
      placeholder: 'A consola de administração do {{productName}} estará disponível aqui em breve.',
    },
  },
};
