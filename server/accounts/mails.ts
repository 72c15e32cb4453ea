import { partnerConfig } from '../../domain/config';
import type { Mail } from '../infra/mail';
import { mail } from '../office/mail';

export function confirmationCodeMail(to: string, code: string): Mail {
  // The code stays out of the subject: subjects show on lock screens and in mail logs.
  return mail(to, `Your ${partnerConfig.name} confirmation code`, [
    `Your confirmation code for the ${partnerConfig.applicationTitle} is ${code}.`,
    'Enter it on the confirmation page to finish creating your account. It expires in 15 minutes and can be used once.',
    'If you did not create an account, you can ignore this e-mail.',
  ]);
}

export function accountExistsMail(to: string, publicUrl: string): Mail {
  return mail(to, `Your ${partnerConfig.name} account`, [
    `Someone (perhaps you) tried to create an account for the ${partnerConfig.applicationTitle} with this address, which already has one.`,
    `To continue your application, sign in at ${publicUrl}/login. If you forgot your password, reset it at ${publicUrl}/forgot.`,
    'If this was not you, you can ignore this e-mail: your account has not changed.',
  ]);
}

export function passwordResetMail(to: string, link: string): Mail {
  return mail(to, `Reset your ${partnerConfig.name} password`, [
    `To choose a new password for your ${partnerConfig.applicationTitle} account, open this link within one hour: ${link}`,
    'The link works once. If you did not ask to reset your password, you can ignore this e-mail.',
  ]);
}
