import { fieldsOf, groupsOfPage } from '../../../domain/catalogue';

/** Every field of the About page (first instances of repeated groups), conditional ones shown too. */
export const floorFields = groupsOfPage('about')
  .flatMap((group) => fieldsOf(group, 1))
  .filter((field) => field.type !== 'document');
