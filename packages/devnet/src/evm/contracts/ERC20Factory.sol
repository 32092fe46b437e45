// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

import "./NativeERC20.sol";

/// Creates the ERC20s of bank denoms, as minievm's `ERC20Factory` does: the new token's ownership goes to
/// the caller, and metadata stays editable only for tokens the chain itself created.
contract ERC20Factory {
    address constant CHAIN_ADDRESS = 0x0000000000000000000000000000000000000001;

    event ERC20Created(address indexed erc20, address indexed owner);

    function createERC20(string memory name, string memory symbol, uint8 decimals) external returns (address) {
        NativeERC20 erc20 = new NativeERC20(name, symbol, decimals, msg.sender != CHAIN_ADDRESS);
        erc20.transferOwnership(msg.sender);
        emit ERC20Created(address(erc20), msg.sender);
        return address(erc20);
    }
}
