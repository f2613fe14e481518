import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  checkListingFields,
  LISTING_FIELDS,
  type ListingProblem,
  listingDocsSizeProblem,
} from '@platform/integration-schema';
import { freeIconNames } from '../../icons/freeIconNames.js';
import { MANIFEST_FILE, type ManifestIntegration } from '../../project/readManifest.js';
import { freeEquivalent } from './checkIcons.js';
import { type Finding, finding } from './finding.js';

/**
 * `project.listing`: the marketplace listing of each `platform.json` integration entry (`name`,
 * `description`, `icon`, `docs`), by integration-schema's one rule (`checkListingFields`, the rule
 * the host's install and gate apply), and the docs file's presence and size.
 */
export async function checkListing(
  projectDir: string,
  integrations: readonly ManifestIntegration[],
): Promise<Finding[]> {
  if (!integrations.some((integration) => hasListing(integration.raw))) return [];
  const free = await freeIconNames();
  const icons = {
    has: (name: string) => free.has(name),
    suggest: (name: string) => freeEquivalent(name, free),
  };
  const findings: Finding[] = [];
  integrations.forEach((integration, index) => {
    const { listing, problems } = checkListingFields(integration.raw, icons);
    if (listing.docs !== undefined) {
      const problem = listingDocsSizeProblem(listing.docs, fileSize(resolve(projectDir, listing.docs)));
      if (problem !== undefined) problems.push(problem);
    }
    for (const problem of problems) findings.push(listingFinding(integration, index, problem));
  });
  return findings;
}

function listingFinding(integration: ManifestIntegration, index: number, problem: ListingProblem): Finding {
  return finding('project.listing', {
    message: `${MANIFEST_FILE}: ${integration.slug}: ${problem.message}`,
    path: `${MANIFEST_FILE} integrations.${index}.${problem.field}`,
    hint: problem.hint,
  });
}

const hasListing = (raw: Readonly<Record<string, unknown>>) =>
  LISTING_FIELDS.some((field) => raw[field] !== undefined);

function fileSize(path: string): number | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}
