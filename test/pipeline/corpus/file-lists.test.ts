/**
 * Which file list is a package's own (pipeline/steps/corpus/file-lists.ts): PMC names it after the package
 * (`x.tar.gz` → `x.filelist.csv`); every other list is global.
 */
import { describe, expect, it } from 'vitest';
import { pairFileLists } from '../../../pipeline/steps/corpus/file-lists.ts';

describe('pairFileLists', () => {
  it('pairs each package with the list PMC names after it, and leaves the rest global in their order', () => {
    const packages = ['oa_comm_xml.PMC000xxxxxx.baseline.2026-01-01.tar.gz', 'oa_comm_xml.incr.2026-01-02.tgz', 'no-list.tar.gz'];
    const lists = [
      'oa_comm_xml.PMC000xxxxxx.baseline.2026-01-01.filelist.csv',
      'oa_comm_xml.PMC001xxxxxx.baseline.2026-01-01.filelist.csv', // its package is absent
      'oa_comm_xml.incr.2026-01-02.filelist.csv',
      'oa_file_list.csv',
      'no-list_file_list.csv', // not PMC's pairing
    ];
    const { own, global } = pairFileLists(packages, lists);
    expect([...own]).toEqual([
      ['oa_comm_xml.PMC000xxxxxx.baseline.2026-01-01.tar.gz', 'oa_comm_xml.PMC000xxxxxx.baseline.2026-01-01.filelist.csv'],
      ['oa_comm_xml.incr.2026-01-02.tgz', 'oa_comm_xml.incr.2026-01-02.filelist.csv'],
    ]);
    expect(global).toEqual(['oa_comm_xml.PMC001xxxxxx.baseline.2026-01-01.filelist.csv', 'oa_file_list.csv', 'no-list_file_list.csv']);
  });
});
