import type { Phrases } from './en';

export const ptBR: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Carregando…',
  },
  portal: {
    home: {
      welcome:
        'Bem-vindo ao seu portal {{productName}}. Aqui você poderá gerenciar sua conta e seus métodos de login.',
      environment: 'Ambiente: {{environment}}',
      loadError: 'Não foi possível carregar a configuração. Tente novamente mais tarde.',
    },
    account: {
      title: 'Entrar',
      placeholder: 'As telas de login estarão disponíveis em breve.',
    },
    profile: {
      title: 'Perfil',
      placeholder: 'Seu perfil estará disponível aqui em breve.',
    },
  },
  admin: {
    dashboard: {
      title: 'Administração',
      placeholder: 'O console de administração do {{productName}} estará disponível aqui em breve.',
    },
  },
};
