// The spec shows the general terms of use in French whatever the interface language; the text is
// therefore not translated and is marked lang="fr" where it is rendered.

export const TERMS_UPDATED = '1er janvier 2026';

export function TermsOfUseFr() {
  return (
    <>
      <p>Dernière mise à jour : {TERMS_UPDATED}</p>

      <h3>1. Objet</h3>
      <p>
        Les présentes conditions générales d'utilisation (« CGU ») définissent les règles d'accès et d'utilisation du
        portail d'identification et des applications du groupe auxquelles il donne accès (ensemble, le « Service »).
        Toute connexion au Service vaut acceptation sans réserve des présentes CGU.
      </p>

      <h3>2. Définitions</h3>
      <ul>
        <li>
          <strong>Administrateur</strong> : personne habilitée par le groupe à créer les comptes, attribuer les droits
          d'accès et débloquer les comptes.
        </li>
        <li>
          <strong>Utilisateur privilégié</strong> : utilisateur disposant, pour une ou plusieurs applications, de droits
          étendus (validation, gestion des clients, gestion de service).
        </li>
        <li>
          <strong>Utilisateur autorisé</strong> : toute personne, salariée du groupe ou d'un client, à qui un compte
          personnel a été attribué.
        </li>
      </ul>

      <h3>3. Compte et identifiants</h3>
      <p>
        Le compte est strictement personnel. L'Utilisateur autorisé garde ses identifiants confidentiels, ne les
        communique à personne et signale sans délai à l'Administrateur toute utilisation qu'il soupçonne frauduleuse.
        Les utilisateurs du groupe se connectent avec leur compte professionnel (Office 365).
      </p>
      <p>
        Après cinq tentatives de connexion infructueuses, le compte est verrouillé pendant cinq minutes ; des
        verrouillages répétés entraînent un blocage que seul un Administrateur peut lever. Le mot de passe compte au
        moins 12 caractères, doit être changé tous les 90 jours et ne peut reprendre l'un des 7 derniers mots de passe.
      </p>

      <h3>4. Utilisation du Service</h3>
      <p>
        L'Utilisateur autorisé s'engage à utiliser le Service conformément à sa destination professionnelle, à ne pas
        tenter d'accéder à des données ou à des applications pour lesquelles il n'a pas reçu de droits, et à ne pas
        porter atteinte à la sécurité ou au bon fonctionnement du Service.
      </p>

      <h3>5. Données personnelles</h3>
      <p>
        Les données d'identification (nom, prénom, adresse électronique, langue, historique de connexion) sont
        traitées pour gérer les accès et assurer la sécurité du Service, conformément au règlement (UE) 2016/679
        (RGPD). Chaque utilisateur dispose d'un droit d'accès, de rectification, d'effacement, de limitation,
        d'opposition et de portabilité, qu'il exerce depuis son profil (« Exercer vos droits »).
      </p>

      <h3>6. Disponibilité et conservation</h3>
      <p>
        Le Service est accessible en continu, sauf opérations de maintenance ou incident. Après la fin du contrat, le
        client conserve un accès en consultation à ses documents jusqu'au 31 décembre de l'année N+3, N étant l'année
        de génération du document fiscal concerné.
      </p>

      <h3>7. Responsabilité</h3>
      <p>
        Le groupe met en œuvre les moyens raisonnables pour assurer la sécurité et la disponibilité du Service. Il ne
        saurait être tenu responsable d'une utilisation des identifiants contraire aux présentes CGU.
      </p>

      <h3>8. Modification et droit applicable</h3>
      <p>
        Les présentes CGU peuvent être modifiées ; la version en vigueur est celle affichée sur la page de connexion.
        Elles sont soumises au droit français.
      </p>
    </>
  );
}
