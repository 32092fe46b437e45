import { encodeSecp256k1Pubkey } from '@cosmjs/amino';
import {
  DirectSecp256k1HdWallet,
  encodePubkey,
  makeAuthInfoBytes,
  makeSignDoc,
  Registry,
} from '@cosmjs/proto-signing';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { MsgInitiateTokenDeposit } from '@initia/opinit.proto/opinit/ophost/v1/tx.js';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { DevnetChain } from '../devnet.js';
import type { DevAccount } from '../keys.js';

const protoRegistry = new Registry([['/opinit.ophost.v1.MsgInitiateTokenDeposit', MsgInitiateTokenDeposit]]);

/** Signs L1 deposits as cosmjs does (direct mode), keeping the account's sequence across calls. */
export async function depositor(l1: DevnetChain, from: DevAccount) {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(from.mnemonic, { prefix: 'init' });
  const [signer] = await wallet.getAccounts();
  const info = (await (
    await fetch(`${l1.urls.rest}/cosmos/auth/v1beta1/account_info/${signer!.address}`)
  ).json()) as { info: { account_number: string; sequence: string } };
  let sequence = Number(info.info.sequence);
  const client = await Comet38Client.connect(l1.urls.rpc);
  const gas = 400_000;
  return {
    /** Broadcasts a deposit (sync) and answers its hash (uppercase hex). */
    async deposit(input: { bridgeId: bigint; to: string; amount: string; data?: Uint8Array }) {
      const bodyBytes = protoRegistry.encodeTxBody({
        messages: [
          {
            typeUrl: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
            value: {
              sender: signer!.address,
              bridgeId: input.bridgeId,
              to: input.to,
              amount: { denom: 'uinit', amount: input.amount },
              data: input.data ?? new Uint8Array(),
            },
          },
        ],
        memo: '',
      });
      const authInfoBytes = makeAuthInfoBytes(
        [{ pubkey: encodePubkey(encodeSecp256k1Pubkey(signer!.pubkey)), sequence }],
        [{ denom: 'uinit', amount: String(Math.ceil(gas * l1.chain.info.minGasPrice)) }],
        gas,
        undefined,
        undefined,
      );
      const signDoc = makeSignDoc(
        bodyBytes,
        authInfoBytes,
        l1.chain.info.chainId,
        Number(info.info.account_number),
      );
      const { signature } = await wallet.signDirect(signer!.address, signDoc);
      const raw = TxRaw.encode({
        bodyBytes,
        authInfoBytes,
        signatures: [Buffer.from(signature.signature, 'base64')],
      }).finish();
      const result = await client.broadcastTxSync({ tx: raw });
      if (result.code !== 0) throw new Error(`deposit refused: ${result.log}`);
      sequence += 1;
      return Buffer.from(result.hash).toString('hex').toUpperCase();
    },
    close: () => client.disconnect(),
  };
}
