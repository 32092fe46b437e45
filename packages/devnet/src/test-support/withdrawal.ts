/** What the OPinit executor answers at `/withdrawal/{sequence}`: the proof a claim carries. */
export interface WithdrawalProof {
  sequence: number;
  from: string;
  to: string;
  amount: { denom: string; amount: string };
  output_index: number;
  bridge_id: number;
  withdrawal_proofs: string[];
  version: string;
  storage_root: string;
  last_block_hash: string;
  tx_hash: string;
}

/** The executor's proof of a withdrawal (its `output_index` is 0 until an output covers it). */
export const withdrawalProof = async (executorUrl: string, sequence: number | string) =>
  (await (await fetch(`${executorUrl}/withdrawal/${sequence}`)).json()) as WithdrawalProof;

/** `MsgFinalizeTokenWithdrawal` (the claim on the L1) of a proof, as a wallet fills it in. */
export function withdrawalClaim(proof: WithdrawalProof, sender: string) {
  return {
    sender,
    bridgeId: BigInt(proof.bridge_id),
    outputIndex: BigInt(proof.output_index),
    withdrawalProofs: proof.withdrawal_proofs.map((p) => Buffer.from(p, 'base64')),
    from: proof.from,
    to: proof.to,
    sequence: BigInt(proof.sequence),
    amount: proof.amount,
    version: Buffer.from(proof.version, 'base64'),
    storageRoot: Buffer.from(proof.storage_root, 'base64'),
    lastBlockHash: Buffer.from(proof.last_block_hash, 'base64'),
  };
}
