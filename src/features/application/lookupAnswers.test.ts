// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { fieldByKey } from '../../../domain/catalogue';
import { lookupAnswers } from './lookupAnswers';

const school = fieldByKey.get('hs_name')!.lookup!;
const secondSchool = fieldByKey.get('hs_2_name')!.lookup!;

describe('lookupAnswers', () => {
  it('copies the record into the answers with the prefix, and the labels of the dropdowns into _desc', () => {
    const detail = { id: '060385', name: 'East High School', ceeb: '060385', city: 'Denver', state: 'Colorado', zip: '80206', country: 'USA' };
    expect(lookupAnswers(school, detail, 'East High School', {})).toEqual({
      hs_name: 'East High School',
      hs_ceeb: '060385',
      hs_city: 'Denver',
      hs_country: 'USA',
      hs_country_desc: 'United States',
      hs_state: 'Colorado',
      hs_state_desc: 'Colorado',
      hs_zip: '80206',
    });
    expect(lookupAnswers(secondSchool, detail, 'East High School', {})).toMatchObject({ hs_2_name: 'East High School', hs_2_state: 'Colorado', hs_2_country_desc: 'United States' });
  });

  it('fills the state after the country it depends on, even when another country was chosen before', () => {
    const detail = { id: '576520', name: 'A. T. Mahan High School', state: 'Armed Forces Europe', country: 'USA' };
    expect(lookupAnswers(school, detail, 'x', { hs_country: 'CAN' })).toMatchObject({ hs_country: 'USA', hs_state: 'Armed Forces Europe', hs_state_desc: 'Armed Forces Europe' });
  });

  it('leaves out fields the record lacks (the street stays as typed) and values a dropdown does not offer', () => {
    expect(lookupAnswers(school, { id: '1', name: 'Somewhere School', state: 'Atlantis', country: 'USA' }, 'Somewhere School', {})).toEqual({
      hs_name: 'Somewhere School',
      hs_country: 'USA',
      hs_country_desc: 'United States',
    });
  });

  it('uses the label when the record has no name', () => {
    expect(lookupAnswers(school, { id: '1' }, 'Typed Label', {})).toEqual({ hs_name: 'Typed Label' });
  });
});
