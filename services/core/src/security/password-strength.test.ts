import { estimatePasswordStrength, guessableWords, weaknessReason } from '@gatehouse/contracts/password-strength';
import { expect } from 'chai';
import { DEFAULT_PASSWORD_POLICY, checkPasswordRules } from './password-policy.js';
import { generatePassword } from './passwords.js';

// "Password123!" meets every character rule of the default policy, and is among the first guesses.
const COMMON = 'Password123!';
const JANE = ['jane.doe', 'jane.doe@example.com', 'Jane', 'Doe'];

describe('password strength (zxcvbn)', () => {
  it('scores a common password low and says why in the language asked for, French and German alike', async () => {
    const fr = await estimatePasswordStrength(COMMON, { language: 'fr' });
    expect(fr.score).to.be.below(3);
    expect(weaknessReason(fr)).to.equal(
      'Ce mot de passe est similaire à un mot de passe couramment utilisé. Ajoutez des mots moins courants. Utilisez des majuscules mais pas seulement sur la première lettre.',
    );
    const de = await estimatePasswordStrength(COMMON, { language: 'de' });
    expect(de.score).to.equal(fr.score);
    expect(de.warning).to.equal('Dies weist Ähnlichkeit zu anderen oft verwendeten Passwörtern auf.');
    expect(de.suggestions).to.include('Nicht nur den ersten Buchstaben groß schreiben.');
  });

  it('gives Portugal the Portuguese of Brazil, and English when no language is asked for', async () => {
    expect((await estimatePasswordStrength(COMMON, { language: 'pt-PT' })).warning).to.equal('Isso é semelhante a uma senha comumente usada.');
    expect((await estimatePasswordStrength(COMMON)).warning).to.equal('This is similar to a commonly used password.');
  });

  it('scores a long random passphrase and a generated password at the top, with nothing to say', async () => {
    for (const password of ['tuba-Lantern-9-orbit-calm', generatePassword(20), generatePassword(20)]) {
      const strength = await estimatePasswordStrength(password, { language: 'en', userInputs: JANE });
      expect(strength, password).to.deep.equal({ score: 4, warning: null, suggestions: [] });
    }
  });

  it('counts the user’s own words and the product’s name as guessable', async () => {
    const stranger = await estimatePasswordStrength('Jane.Doe2024!', { language: 'en' });
    const jane = await estimatePasswordStrength('Jane.Doe2024!', { language: 'en', userInputs: JANE });
    expect(stranger.score, 'a stranger’s name is as good as any word').to.be.at.least(3);
    expect(jane.score, 'Jane’s own name is the first thing tried').to.be.below(3);
    expect(jane.warning).to.equal('There should not be any personal or page related data.');
    expect((await estimatePasswordStrength('Gatehouse2024!', { language: 'en' })).warning).to.equal('There should not be any personal or page related data.');
  });

  it('counts an e-mail address’s name and the parts of each word given', async () => {
    const jane = await estimatePasswordStrength('Jane.Doe2024!', { language: 'en', userInputs: ['jane.doe@example.com'] });
    expect(jane.score, 'the address’s name, "jane.doe"').to.be.below(3);
    expect(guessableWords(['Jane.Doe@Example.com', ' Jane ', '', 'jo'])).to.deep.equal(['jane.doe@example.com', 'jane.doe', 'jane', 'doe', 'example', 'com', 'jo']);
  });

  it('estimates only the start of a very long password, in a bounded time', async () => {
    const started = performance.now();
    const strength = await estimatePasswordStrength(`${'4@8(6|)3#69&1!|<^^//0$5+7%2'.repeat(40)}`, { language: 'fr' });
    expect(strength.score).to.be.within(0, 4);
    expect(performance.now() - started, 'a 1,080-character password is estimated on its first 32').to.be.below(1000);
  });
});

describe('checkPasswordRules with the strength', () => {
  it('refuses a common password that meets every character rule, with the estimator’s reason in the caller’s language', async () => {
    expect(await checkPasswordRules(COMMON, DEFAULT_PASSWORD_POLICY, 'newPassword', { language: 'fr' })).to.deep.equal([
      {
        field: 'newPassword',
        code: 'password.too_weak',
        params: {
          reason:
            'Ce mot de passe est similaire à un mot de passe couramment utilisé. Ajoutez des mots moins courants. Utilisez des majuscules mais pas seulement sur la première lettre.',
        },
      },
    ]);
    const [german] = await checkPasswordRules(COMMON, DEFAULT_PASSWORD_POLICY, 'password', { language: 'de' });
    expect(german).to.include({ field: 'password', code: 'password.too_weak' });
    expect(german!.params!.reason).to.match(/^Dies weist Ähnlichkeit zu anderen oft verwendeten Passwörtern auf\. /);
  });

  it('accepts a long random passphrase and the product’s generated passwords', async () => {
    expect(await checkPasswordRules('tuba-Lantern-9-orbit-calm', DEFAULT_PASSWORD_POLICY)).to.deep.equal([]);
    for (let i = 0; i < 20; i++) {
      const generated = generatePassword(Math.max(20, DEFAULT_PASSWORD_POLICY.minLength));
      expect(await checkPasswordRules(generated, DEFAULT_PASSWORD_POLICY), generated).to.deep.equal([]);
      // Safe to paste unquoted into a shell (the first administrator's is printed at the first start).
      expect(generated, generated).to.match(/^[A-Za-z0-9%+,\-.:=@_]+$/);
    }
  });

  it('refuses a password built on the user’s own words that it accepts from anyone else', async () => {
    expect(await checkPasswordRules('Jane.Doe2024!', DEFAULT_PASSWORD_POLICY, 'newPassword', { userInputs: ['someone.else', null, undefined] })).to.deep.equal([]);
    const refused = await checkPasswordRules('Jane.Doe2024!', DEFAULT_PASSWORD_POLICY, 'newPassword', { userInputs: ['jane.doe', 'Jane', 'Doe'], language: 'en' });
    expect(refused.map((error) => error.code)).to.deep.equal(['password.too_weak']);
    expect(refused[0]!.params!.reason).to.match(/^There should not be any personal or page related data\./);
  });

  it('leaves the estimate out with minStrength 0, and while a character rule is broken', async () => {
    expect(await checkPasswordRules(COMMON, { ...DEFAULT_PASSWORD_POLICY, minStrength: 0 })).to.deep.equal([]);
    const codes = (await checkPasswordRules('password', DEFAULT_PASSWORD_POLICY)).map((error) => error.code);
    expect(codes).to.deep.equal(['password.too_short', 'password.uppercase', 'password.digit', 'password.symbol']);
  });

  it('asks for the top score when the policy does, with the estimator’s advice when it names nothing', async () => {
    // A fair password (score 3) passes the default and fails a policy asking for 4.
    expect(await checkPasswordRules('Motdepasse2024!', DEFAULT_PASSWORD_POLICY)).to.deep.equal([]);
    expect(await checkPasswordRules('Motdepasse2024!', { ...DEFAULT_PASSWORD_POLICY, minStrength: 4 }, 'newPassword', { language: 'fr' })).to.deep.equal([
      { field: 'newPassword', code: 'password.too_weak', params: { reason: 'Ajoutez des mots moins courants.' } },
    ]);
  });

  it('answers estimates asked at the same time in several languages, each in its own', async () => {
    const verdicts = await Promise.all(['it', 'it', 'es', 'it', 'es'].map((language) => estimatePasswordStrength(COMMON, { language: language as 'it' | 'es' })));
    expect(new Set(verdicts.map((verdict) => verdict.warning)).size, 'Italian and Spanish').to.equal(2);
    expect(verdicts[0]).to.deep.equal(verdicts[1]);
  });
});
